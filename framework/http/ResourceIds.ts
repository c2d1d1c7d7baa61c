import { AddressType } from '../catalog/types/AddressType';
import { ValueError } from '../catalog/types/ColumnType';
import { HashType } from '../catalog/types/HashType';
import { ApiError } from '../errors/ApiError';

/**
 * Parsers for the ids in explorer paths. A malformed id is the caller's 400/1301 with the reason;
 * whether a well-formed id exists is the route's business (404/1305).
 */
export type BlockId = { kind: 'head' } | { kind: 'height'; height: number } | { kind: 'hash'; hash: string };
export type OperationId = { kind: 'hash'; hash: string } | { kind: 'id'; id: bigint };

const BLOCK_HASH = new HashType('block');
const OP_HASH = new HashType('operation');
const ADDRESS = new AddressType();
const MAX_HEIGHT = 2 ** 31 - 1;

export function parseBlockId(raw: string): BlockId {
  if (raw === 'head') return { kind: 'head' };
  if (/^\d+$/.test(raw)) {
    const height = Number(raw);
    if (height > MAX_HEIGHT) throw ApiError.malformedId(`invalid block height '${raw}'`);
    return { kind: 'height', height };
  }
  return { kind: 'hash', hash: checked(BLOCK_HASH, raw, 'invalid block hash') };
}

/** What an operation hash looks like: `o` and 50 more base58 characters (its checksum unchecked). */
const OP_HASH_SHAPE = /^o[1-9A-HJ-NP-Za-km-z]{50}$/;

/**
 * An operation id whose hash has the right shape; its checksum is only checked by
 * `missingOperation`, when no operation has it: a stored hash is valid, and the check (two SHA-256)
 * was 3 % of the op route.
 */
export function parseOperationId(raw: string): OperationId {
  if (/^\d{1,19}$/.test(raw)) return { kind: 'id', id: BigInt(raw) };
  if (!OP_HASH_SHAPE.test(raw)) throw ApiError.malformedId(`invalid operation hash '${raw}'`);
  return { kind: 'hash', hash: raw };
}

/** The error for an operation id nothing matched: 400/1301 for a hash whose checksum fails, else 404. */
export function missingOperation(id: OperationId): ApiError {
  if (id.kind === 'hash') checked(OP_HASH, id.hash, 'invalid operation hash');
  return ApiError.notFound('no such operation');
}

export function parseAddress(raw: string): string {
  return checked(ADDRESS, raw, 'invalid address');
}

/** A cycle or other sequence number, or `head`. */
export function parseSequenceId(raw: string, what: string): number | 'head' {
  if (raw === 'head') return 'head';
  if (!/^\d{1,9}$/.test(raw)) throw ApiError.malformedId(`invalid ${what} '${raw}'`);
  return Number(raw);
}

/** `raw` when it parses as `type`, else 400/1301 `<message> '<raw>'`. */
export function checked(type: { parse(arg: string): unknown }, raw: string, message: string): string {
  try {
    type.parse(raw);
    return raw;
  } catch (e) {
    if (e instanceof ValueError) throw ApiError.malformedId(`${message} '${raw}'`);
    throw e;
  }
}
