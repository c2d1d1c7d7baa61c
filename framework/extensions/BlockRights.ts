import { slotsIn } from './AccountMetadata';

/** One right at a block, as the TzPro SDK's index.Right (every key; null where not known). */
export interface BlockRight {
  type: 'baking' | 'endorsing';
  address: string;
  /** Baking rights: the round; null for attestation rights. */
  round: number | null;
  is_used: boolean;
  is_lost: boolean;
  is_stolen: boolean;
  is_missed: boolean;
  /**
   * Baking rights: the block committed to a seed nonce / it was revealed (the baking plugin); null when not tracked.
   */
  is_seed_required: boolean | null;
  is_seed_revealed: boolean | null;
}

/** A right with every flag false but the given ones. */
export function blockRight(
  type: BlockRight['type'],
  address: string,
  round: number | null,
  flags: Partial<
    Pick<BlockRight, 'is_used' | 'is_lost' | 'is_stolen' | 'is_missed' | 'is_seed_required' | 'is_seed_revealed'>
  >,
): BlockRight {
  return {
    type,
    address,
    round,
    is_used: false,
    is_lost: false,
    is_stolen: false,
    is_missed: false,
    is_seed_required: null,
    is_seed_revealed: null,
    ...flags,
  };
}

/**
 * `rights=1` on a block: the baking and attestation rights at its height. Like `meta=1`, the block
 * carries a slot that the object responder fills through the instance's BlockRightsSource (the baking
 * plugin provides it). Unknown rights (no baking plugin, a cycle the node never told) stay null.
 */
export interface BlockRightsSource {
  /** Rights per height, for the heights whose rights are known. */
  rightsAt(heights: readonly number[]): Promise<Map<number, BlockRight[]>>;
}

/** Injection token of the instance's BlockRightsSource. */
export const BLOCK_RIGHTS = Symbol.for('tzidx.BlockRights');

/** The source of an instance without the baking plugin. */
export const NO_BLOCK_RIGHTS: BlockRightsSource = { rightsAt: async () => new Map() };

/** The `rights` field of a block with `rights=1`, until the responder fills it. */
export class RightsSlot {
  content: BlockRight[] | null = null;
  constructor(readonly height: number) {}
  toJSON(): BlockRight[] | null {
    return this.content;
  }
}

/** What `rights=1` adds to a block object. */
export function rightsField(rights: boolean, height: number): { rights?: RightsSlot } {
  return rights ? { rights: new RightsSlot(height) } : {};
}

/** Fills the rights slots of an answer with one lookup. */
export async function fillRightsSlots(body: unknown, source: BlockRightsSource): Promise<void> {
  const slots = slotsIn(body, 'rights', RightsSlot);
  if (slots.length === 0) return;
  const found = await source.rightsAt([...new Set(slots.map((s) => s.height))]);
  for (const slot of slots) slot.content = found.get(slot.height) ?? null;
}
