import { type IndexContext, type NormalizedOperation, member } from '../../framework';
import { ContractCode, isPrim, section, typeShape, walkMicheline } from '../../framework';

/** Key and value type of a bigmap as Micheline (the node's JSON form). */
export interface KeyValueTypes {
  keyType: unknown;
  valueType: unknown;
}

/**
 * Where a bigmap's types come from besides the diff: the storage type of the contract that owns it.
 * Since Jakarta the node's `alloc` diffs carry types without annotations; the contract's storage
 * type has them (field names of records), so an unannotated pair is replaced by the first bigmap
 * type of the storage with the same shape, as tzindex does. Pre-Babylon bigmaps had no alloc at all:
 * their types are the storage's only bigmap type.
 */
export class BigmapTypes {
  constructor(private readonly ctx: IndexContext) {}

  /** The diff's types, annotated from the contract's storage type where they carry no annotation. */
  async annotated(op: NormalizedOperation, types: KeyValueTypes): Promise<KeyValueTypes> {
    if (hasAnnotation(types.keyType) || hasAnnotation(types.valueType)) return types;
    const match = bigmapTypesIn(await this.storageType(op)).find(
      (t) => typeShape(t.keyType) === typeShape(types.keyType) && typeShape(t.valueType) === typeShape(types.valueType),
    );
    return match ?? types;
  }

  /** The first bigmap type in the storage type of the operation's contract. */
  async first(op: NormalizedOperation): Promise<KeyValueTypes | undefined> {
    return bigmapTypesIn(await this.storageType(op))[0];
  }

  /** The storage type of the contract an operation runs: from its own script (originations) or the contract row. */
  private async storageType(op: NormalizedOperation): Promise<unknown> {
    if (op.script !== undefined) return section(member(op.script, 'code'), 'storage');
    if (op.receiver === undefined) return undefined;
    const contract = await this.ctx.entities('contract', 'address').get(op.receiver);
    const script = contract?.script;
    const hex = Buffer.isBuffer(script) || script instanceof Uint8Array ? Buffer.from(script).toString('hex') : script;
    return typeof hex === 'string' ? ContractCode.fromScriptHex(hex)?.storageType : undefined;
  }
}

function hasAnnotation(t: unknown): boolean {
  let found = false;
  walkMicheline(t, (node) => {
    if (found) return undefined;
    if (Array.isArray(node)) return node;
    found = isPrim(node) && (node.annots?.length ?? 0) > 0;
    return isPrim(node) ? node.args : undefined;
  });
  return found;
}

/** Every `big_map k v` in a type, depth first from the left. */
function bigmapTypesIn(type: unknown): KeyValueTypes[] {
  const out: KeyValueTypes[] = [];
  walkMicheline(type, (t) => {
    if (!isPrim(t)) return undefined;
    if (t.prim !== 'big_map' || t.args?.length !== 2) return t.args;
    out.push({ keyType: t.args[0], valueType: t.args[1] });
    return undefined;
  });
  return out;
}
