/**
 * `meta=1` on explorer objects: the metadata of the accounts an object names, keyed by address.
 * Objects are built synchronously, so they carry a slot naming the addresses; the object responder
 * fills every slot of an answer with one lookup through the instance's AccountMetadataSource (the
 * metadata plugin provides it; without that plugin the slots stay empty objects).
 */
export interface AccountMetadataSource {
  /** Metadata entries (objects keyed by schema name) of those addresses that have one. */
  lookup(addresses: readonly string[]): Promise<Map<string, object>>;
}

/** Injection token of the instance's AccountMetadataSource. */
export const ACCOUNT_METADATA = Symbol.for('tzidx.AccountMetadata');

/** The source of an instance without the metadata plugin. */
export const NO_ACCOUNT_METADATA: AccountMetadataSource = { lookup: async () => new Map() };

/** The slots of one kind in an answer: the `field` of the answer object or of each object of a list. */
export function slotsIn<T>(body: unknown, field: string, kind: new (...args: never[]) => T): T[] {
  const objects = Array.isArray(body) ? body : [body];
  return objects
    .map((o) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[field] : undefined))
    .filter((v): v is T => v instanceof kind);
}

const ADDRESS = /^(tz[1-4]|KT1|txr1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/;

/** The `metadata` field of an object with `meta=1`, until the responder fills it. */
export class MetadataSlot {
  content: Record<string, object> = {};
  constructor(readonly addresses: readonly string[]) {}
  toJSON(): object | null {
    return this.content;
  }
}

/**
 * The `metadata` of an object that is one account (the SDK's Baker: a single `index.Metadata`): that
 * account's entry itself, with its `address`; null when it has none.
 */
export class OwnMetadataSlot extends MetadataSlot {
  override toJSON(): object | null {
    return this.content[this.addresses[0]] ?? null;
  }
}

/**
 * What `meta=1` adds to an explorer object: `{ metadata }` keyed by each address the object names
 * that has metadata. Pass every address field of the object (nulls and non-addresses are skipped).
 */
export function metadataField(meta: boolean, ...addresses: unknown[]): { metadata?: MetadataSlot } {
  if (!meta) return {};
  return {
    metadata: new MetadataSlot([
      ...new Set(addresses.filter((a): a is string => typeof a === 'string' && ADDRESS.test(a))),
    ]),
  };
}

/** What `meta=1` adds to an object that is one account: `{ metadata }`, that account's entry (OwnMetadataSlot). */
export function ownMetadataField(meta: boolean, address: string): { metadata?: MetadataSlot } {
  return meta ? { metadata: new OwnMetadataSlot([address]) } : {};
}

/** Fills the metadata slots of an answer (an object or a list of objects) with one lookup. */
export async function fillMetadataSlots(body: unknown, source: AccountMetadataSource): Promise<void> {
  const slots = slotsIn(body, 'metadata', MetadataSlot);
  if (slots.length === 0) return;
  const found = await source.lookup([...new Set(slots.flatMap((s) => s.addresses))]);
  for (const slot of slots) {
    for (const a of slot.addresses) {
      const entry = found.get(a);
      if (entry) slot.content[a] = entry;
    }
  }
}
