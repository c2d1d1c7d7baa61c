import { BaseColumnType, BinaryFields, Encoding, ValueError } from './ColumnType';
import { base58check, base58checkPayload } from './Base58';
import { isJsonBuffer } from './BytesType';

/**
 * Operation hashes (`hash(operation)`), the one hash that grows with the chain, stored as the 32 raw
 * bytes of their payload (a `bytea` of 33 bytes on disk against 52 of base58 text) and named in
 * base58check again at the edge (compact and CSV rows, objects, rows read by handlers). Their indexes
 * are B-trees on the first 8 bytes as a `bigint` (`indexKey`: 16-byte index entries, against 48 for
 * the whole hash and about 36 for a hash index), so an equality names that expression beside the full
 * hash (query/ValueLists). Byte order is base58 order here (a fixed prefix and length; base58's
 * alphabet is in ASCII order), so ranges compare as they did on the text.
 */
export class BinaryHashType extends BaseColumnType {
  readonly name = 'hash(operation)';
  readonly sqlType = 'bytea';
  override readonly placeholder = '?::bytea';
  override readonly converts = true;
  override readonly tsType = 'string';

  /** Operation hashes' base58check prefix ('o', 0x0574) and payload length (Octez `Operation_hash`). */
  private static readonly PREFIX = Uint8Array.from([5, 116]);
  private static readonly LENGTH = 32;

  parse(arg: string): Buffer {
    const payload = base58checkPayload(arg, BinaryHashType.PREFIX, BinaryHashType.LENGTH, true);
    if (!payload) throw new ValueError(`'${arg}' is not a valid operation hash`);
    return payload;
  }
  override select(ref: string, _enc: Encoding): string {
    return `encode(${ref}, 'hex')`;
  }
  /** The base58check text of the stored bytes (`select` renders them as hex). */
  private text(hex: string): string {
    return base58check(BinaryHashType.PREFIX, Buffer.from(hex, 'hex'));
  }
  override json(raw: string): string {
    return `"${this.text(raw)}"`;
  }
  override objectValue(raw: string): unknown {
    return this.text(raw);
  }
  override csv(raw: string): string {
    return this.text(raw);
  }
  /**
   * A handler's base58 hash (the node's: its checksum is not checked again), or the bytes already (a
   * journal's pre-image went through JSON). A lookup by such a key compares the text of the rows it finds
   * (CatalogRows.batched), so a key with a wrong checksum finds none.
   */
  override toDb(value: unknown): unknown {
    if (typeof value === 'string') {
      const payload = base58checkPayload(value, BinaryHashType.PREFIX, BinaryHashType.LENGTH, false);
      if (!payload) throw new Error(`'${value}' is not an operation hash`);
      return payload;
    }
    return isJsonBuffer(value) ? Buffer.from(value.data) : value;
  }
  override writeBinary(value: unknown, out: BinaryFields): void {
    out.bytes(this.toDb(value) as Uint8Array);
  }
  override fromDb(value: unknown): unknown {
    return value instanceof Uint8Array ? base58check(BinaryHashType.PREFIX, value) : value;
  }
  indexKey(ref: string): string {
    return `('x' || encode(substring(${ref} from 1 for 8), 'hex'))::bit(64)::bigint`;
  }
  /** The base58 text of an earlier schema: decoded in SQL (`tzidx.base58_payload`, made by the migrator). */
  override convertFrom(ref: string, previous: string): string | undefined {
    if (previous !== 'text') return undefined;
    return `tzidx.base58_payload(${ref}, ${BinaryHashType.PREFIX.length}, ${BinaryHashType.LENGTH})`;
  }
  override schema(): Record<string, unknown> {
    return { type: 'string', description: 'base58check operation hash' };
  }
}
