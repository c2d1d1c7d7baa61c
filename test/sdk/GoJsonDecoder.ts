import {
  b58DecodeAndCheckPrefix,
  PrefixV2,
  validateAddress,
  validateBlock,
  validateChain,
  validateOperation,
  validateProtocol,
  validatePublicKey,
  ValidationResult,
} from '@taquito/utils';
import type { GoField } from './extractGoStructs';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Whether a JSON value decodes into an SDK struct the way the Go client would decode it: explorer
 * objects with encoding/json plus tzgo's UnmarshalText methods, table rows with the SDK's own column
 * decoder (internal/client/decoder.go: hex columns, util.Time, util.Bool). Stricter than Go in one
 * way on purpose: a null for a non-pointer value is a mismatch (Go would silently keep the zero value).
 */
type Struct = { file: string; fields: GoField[]; embeds: string[] };
/** Read from the source tree (dist/test/sdk → test/sdk): the data file is not compiled. */
export const SDK = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '../../../test/sdk/tzpro-go-fields.json'), 'utf8'),
) as { repo: string; commit: string; aliases: Record<string, string>; structs: Record<string, Struct> };
const STRUCTS = SDK.structs as Record<string, Struct>;
const ALIASES = SDK.aliases as Record<string, string>;

/** index.OpType is a byte with UnmarshalText over these names (tzpro/index/optype.go). */
const OP_TYPES = new Set([
  'bake',
  'endorsement',
  'transaction',
  'reveal',
  'delegation',
  'origination',
  'nonce_revelation',
  'activation',
  'ballot',
  'proposal',
  'double_baking',
  'double_endorsement',
  'unfreeze',
  'invoice',
  'airdrop',
  'seed_slash',
  'migration',
  'subsidy',
  'register_constant',
  'preendorsement',
  'double_preendorsement',
  'deposits_limit',
  'deposit',
  'reward',
  'bonus',
  'batch',
  'rollup_origination',
  'rollup_transaction',
  'vdf_revelation',
  'increase_paid_storage',
  'drain_delegate',
  'update_consensus_key',
  'transfer_ticket',
  'stake',
  'unstake',
  'finalize_unstake',
  'set_delegate_parameters',
  'stake_slash',
]);
/** tezos.AddressType accepts a type name or its base58 prefix (tzgo tezos/address.go). */
const ADDRESS_TYPES = new Set([
  'ed25519',
  'secp256k1',
  'p256',
  'contract',
  'blinded',
  'bls12_381',
  'tx_rollup',
  'smart_rollup',
  'tz1',
  'tz2',
  'tz3',
  'KT1',
  'btz1',
  'tz4',
  'txr1',
  'sr1',
]);
const OP_STATUS = new Set(['applied', 'failed', 'skipped', 'backtracked']);
const DIFF_ACTIONS = new Set(['', 'update', 'remove', 'copy', 'alloc']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const INT_RANGE: Record<string, [bigint, bigint]> = {
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int16: [-32768n, 32767n],
  int8: [-128n, 127n],
  uint64: [0n, 2n ** 64n - 1n],
  uint: [0n, 2n ** 64n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint16: [0n, 65535n],
  uint8: [0n, 255n],
  byte: [0n, 255n],
};
/** Types whose UnmarshalJSON takes any JSON (Micheline, raw messages, interfaces). */
const ANY = new Set([
  'any',
  'json.RawMessage',
  'micheline.Prim',
  'micheline.Value',
  'micheline.Script',
  'micheline.Typedef',
  'micheline.Type',
  'micheline.Entrypoints',
  'micheline.Views',
  'micheline.Key',
  'index.MultiKey',
  'struct',
]);

/**
 * index.Metadata has its own UnmarshalJSON (tzpro/index/metadata.go): `address` and `asset_id` are its
 * fields, every other key a schema decoded into that schema's struct (these) or into any.
 */
const METADATA_SCHEMAS: Record<string, string> = {
  alias: 'index.AliasMetadata',
  baker: 'index.BakerMetadata',
  asset: 'index.AssetMetadata',
  payout: '[]index.Address',
  updated: 'index.UpdatedMetadata',
};

function checkMetadata(value: Record<string, unknown>, path: string): string[] {
  const out = 'address' in value ? [] : [`${path}: missing key 'address' (Address index.Address)`];
  return out.concat(
    Object.entries(value).flatMap(([k, v]) => {
      const type = k === 'address' ? 'index.Address' : k === 'asset_id' ? '*int64' : METADATA_SCHEMAS[k];
      return type === undefined ? [] : checkValue(v, type, `${path}.${k}`);
    }),
  );
}

/** Structs with their own UnmarshalText: sent as strings (defi.PoolAddress: `KT1…_pairId`, tzpro/defi/pool.go). */
const TEXT_STRUCTS: Record<string, RegExp> = { 'defi.PoolAddress': /^KT1[1-9A-HJ-NP-Za-km-z]{33}_\d+$/ };

/**
 * A `json:",string"` field: null (left unset) or a JSON string holding what the type decodes from
 * (encoding/json refuses an unquoted number there).
 */
function checkQuoted(value: unknown, goType: string, path: string): string[] {
  if (value === null) return [];
  if (typeof value !== 'string')
    return [
      `${path}: ${JSON.stringify(value)?.slice(0, 80)} does not decode into ${goType},string (quoted value expected)`,
    ];
  const inner: unknown = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)
    ? Number(value)
    : value === 'true' || value === 'false'
      ? value === 'true'
      : undefined;
  if (inner === undefined) return [`${path}: ${JSON.stringify(value)} does not decode into ${goType},string`];
  return checkValue(INT_RANGE[goType] && /^-?\d+$/.test(value) ? Number(value) : inner, goType, path);
}

export type Mode = 'object' | 'table';

/** Keys nested objects may omit, and op types let through (set by the caller's route list). */
let optionalKeys: Record<string, readonly string[]> = {};
export function setAllowances(keys: Record<string, readonly string[]>): void {
  optionalKeys = keys;
}

function resolve(type: string): string {
  for (let i = 0; i < 5 && ALIASES[type] && !type.startsWith('index.OpType'); i++) type = ALIASES[type];
  return type;
}

const b58 = (text: string, check: (s: string) => ValidationResult): boolean =>
  text === '' || check(text) === ValidationResult.VALID;

/** Problems of one value against a Go type; empty when it decodes. */
export function checkValue(value: unknown, goType: string, path: string, mode: Mode = 'object'): string[] {
  const bad = (why: string): string[] => [
    `${path}: ${JSON.stringify(value)?.slice(0, 80)} does not decode into ${goType} (${why})`,
  ];
  if (goType.startsWith('*')) return value === null ? [] : checkValue(value, goType.slice(1), path, mode);
  if (goType.startsWith('[]')) {
    if (value === null) return [];
    if (goType === '[]byte') return typeof value === 'string' ? [] : bad('base64 string expected');
    if (!Array.isArray(value)) return bad('array expected');
    return value.flatMap((v, i) => checkValue(v, goType.slice(2), `${path}[${i}]`, mode));
  }
  const map = /^map\[([\w.]+)\](.+)$/.exec(goType);
  if (map) {
    if (value === null) return [];
    if (typeof value !== 'object' || Array.isArray(value)) return bad('object expected');
    return Object.entries(value as object).flatMap(([k, v]) =>
      map[1].includes('int') && !/^-?\d+$/.test(k)
        ? [`${path}: key '${k}' is not an integer`]
        : checkValue(v, map[2], `${path}.${k}`, mode),
    );
  }
  const type = resolve(goType);
  if (ANY.has(type)) return [];
  if (value === null) return type === 'time.Time' ? bad('null for a non-pointer time') : [];
  if (TEXT_STRUCTS[type])
    return typeof value === 'string' && TEXT_STRUCTS[type].test(value) ? [] : bad('UnmarshalText fails');
  if (type === 'index.Metadata') {
    return typeof value === 'object' && !Array.isArray(value)
      ? checkMetadata(value as Record<string, unknown>, path)
      : bad('object expected');
  }
  if (STRUCTS[type])
    return typeof value === 'object' && !Array.isArray(value)
      ? checkObject(value as Record<string, unknown>, type, path, optionalKeys)
      : bad('object expected');
  if (INT_RANGE[type]) {
    if (typeof value !== 'number' || !Number.isInteger(value)) return bad('integer expected');
    const [lo, hi] = INT_RANGE[type];
    return BigInt(value) < lo || BigInt(value) > hi ? bad('out of range') : [];
  }
  switch (type) {
    case 'float64':
    case 'float32':
      return typeof value === 'number' ? [] : bad('number expected');
    case 'bool':
      return typeof value === 'boolean' ? [] : bad('boolean expected');
    case 'string':
      return typeof value === 'string' ? [] : bad('string expected');
    case 'time.Time':
      return typeof value === 'string' && RFC3339.test(value) ? [] : bad('RFC 3339 time expected');
    case 'time.Duration':
      return typeof value === 'number' && Number.isInteger(value) ? [] : bad('integer nanoseconds expected');
    case 'util.StringList':
      return typeof value === 'string' || (Array.isArray(value) && value.every((s) => typeof s === 'string'))
        ? []
        : bad('string or string array expected');
  }
  // Everything else is a text type: JSON strings only (encoding/json hands them to UnmarshalText).
  if (typeof value !== 'string') return bad('string expected');
  return textOk(type, value) ? [] : bad('UnmarshalText fails');
}

function textOk(type: string, text: string): boolean {
  switch (type) {
    case 'tezos.Address':
      return b58(text.split('%')[0], validateAddress);
    case 'tezos.BlockHash':
      return b58(text, validateBlock);
    case 'tezos.OpHash':
      return b58(text, validateOperation);
    case 'tezos.ProtocolHash':
      return b58(text, validateProtocol);
    case 'tezos.ChainIdHash':
      return b58(text, validateChain);
    case 'tezos.Key':
      return b58(text, validatePublicKey);
    case 'tezos.ExprHash':
      if (text === '') return true;
      try {
        b58DecodeAndCheckPrefix(text, [PrefixV2.ScriptExpr]);
        return true;
      } catch {
        return false;
      }
    case 'tezos.AddressType':
      return ADDRESS_TYPES.has(text);
    case 'tezos.OpStatus':
      return OP_STATUS.has(text);
    case 'index.OpType':
      return OP_TYPES.has(text);
    case 'micheline.DiffAction':
      return DIFF_ACTIONS.has(text);
    case 'tezos.Z':
      return /^[+-]?\d+$/.test(text);
    case 'util.HexBytes':
    case 'tezos.HexBytes':
      return /^([0-9a-fA-F]{2})*$/.test(text);
    case 'tezos.Token':
      // tzgo's Token.UnmarshalText: a KT1 address, optionally `_tokenId`; '' and 'tez' fail.
      return /^KT1\w+(_\d+)?$/.test(text) && validateAddress(text.split('_')[0]) === ValidationResult.VALID;
    case 'tezos.RightType':
      return true;
    default:
      throw new Error(`GoJsonDecoder: no rule for Go type ${type}; add one`);
  }
}

function fieldsOf(name: string): GoField[] {
  const s = STRUCTS[name];
  if (!s) throw new Error(`no SDK struct ${name}`);
  return [...s.embeds.flatMap((e) => (STRUCTS[e] ? fieldsOf(e) : [])), ...s.fields];
}

/**
 * An explorer object: every non-omitempty key present (but those in `optional`), every present key of
 * the struct decodes.
 */
export function checkObject(
  obj: Record<string, unknown>,
  struct: string,
  path = struct,
  optional: Record<string, readonly string[]> = optionalKeys,
): string[] {
  const out: string[] = [];
  for (const f of fieldsOf(struct)) {
    if (f.json === null) continue;
    if (!(f.json in obj)) {
      if (!f.omitempty && !optional[struct]?.includes(f.json))
        out.push(`${path}: missing key '${f.json}' (${f.name} ${f.type})`);
      continue;
    }
    out.push(
      ...(f.quoted
        ? checkQuoted(obj[f.json], f.type, `${path}.${f.json}`)
        : checkValue(obj[f.json], f.type, `${path}.${f.json}`)),
    );
  }
  return out;
}

/** The columns the SDK's table client decodes for a struct, in its order (tzpro tags). */
export function tableColumns(struct: string): GoField[] {
  return fieldsOf(struct).filter((f) => f.column !== null);
}

/** One compact table row, asked for with `columns=` the given fields, as decoder.go decodes it. */
export function checkTableRow(row: unknown, fields: GoField[], path: string): string[] {
  if (!Array.isArray(row)) return [`${path}: row is not an array`];
  if (row.length !== fields.length) return [`${path}: ${row.length} values for ${fields.length} columns`];
  return fields.flatMap((f, i) => {
    const v = row[i];
    const at = `${path}.${f.column}`;
    const bad = (why: string): string[] => [
      `${at}: ${JSON.stringify(v)?.slice(0, 80)} does not decode into ${f.type} column (${why})`,
    ];
    // hex: decoded into a Go string first (null leaves it empty, which the decoder skips).
    if (f.hex)
      return v === null || (typeof v === 'string' && /^([0-9a-fA-F]{2})*$/.test(v)) ? [] : bad('hex string expected');
    if (resolve(f.type) === 'time.Time') {
      // util.Time: an integer (unix s/ms/µs/ns) or an RFC 3339 string; null fails to parse.
      const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined;
      return text !== undefined && (/^-?\d+$/.test(text) || RFC3339.test(text)) ? [] : bad('util.Time');
    }
    if (f.type === 'bool')
      return v === true || v === false || ['0', '1', 'true', 'false', 0, 1].includes(v as string)
        ? []
        : bad('util.Bool');
    return checkValue(v, f.type, at, 'table');
  });
}

/**
 * Keys an answer must fill although Go would decode a null or "" as the zero value: `set` keys must
 * hold a value (not null, not ""), `named` keys null or a value (an empty string names nothing).
 */
export interface FilledKeys {
  set?: readonly string[];
  named?: readonly string[];
}

export function checkFilled(obj: Record<string, unknown>, keys: FilledKeys, path: string): string[] {
  const out: string[] = [];
  const unset = (v: unknown) => v === null || v === undefined || v === '';
  for (const k of keys.set ?? []) if (unset(obj[k])) out.push(`${path}.${k}: not set (${JSON.stringify(obj[k])})`);
  for (const k of keys.named ?? []) if (obj[k] === '') out.push(`${path}.${k}: "" where null or a value is expected`);
  return out;
}
