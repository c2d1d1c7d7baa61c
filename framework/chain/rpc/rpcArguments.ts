import { RpcArgumentError } from './RpcError';

const B58 = '[1-9A-HJ-NP-Za-km-z]';
const BLOCK_ALIAS = new RegExp(`^(head|genesis|checkpoint|savepoint|caboose|B${B58}{50})([~+]\\d{1,10})?$`);
const ADDRESS = new RegExp(`^(tz[1-5]|KT1|sr1|txr1)${B58}{33}$`);
const SCRIPT_EXPR = new RegExp(`^expr${B58}{50}$`);
const CHAIN = new RegExp(`^(main|test|Net${B58}{12})$`);

/** A block: level, hash, or `head`/`genesis`/… optionally with `~n` / `+n`. */
export type BlockId = number | string;

/** Validated block id path segment; bad ids never reach the node. */
export function blockSegment(id: BlockId): string {
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id) && id >= 0) return String(id);
  } else if (/^\d{1,12}$/.test(id) || BLOCK_ALIAS.test(id)) {
    return id;
  }
  throw new RpcArgumentError(`invalid block id ${JSON.stringify(id)}`);
}

export function addressSegment(address: string): string {
  if (ADDRESS.test(address)) return address;
  throw new RpcArgumentError(`invalid address ${JSON.stringify(address)}`);
}

export function scriptExprSegment(expr: string): string {
  if (SCRIPT_EXPR.test(expr)) return expr;
  throw new RpcArgumentError(`invalid script expression hash ${JSON.stringify(expr)}`);
}

export function bigMapIdSegment(id: number | string): string {
  const text = String(id);
  if (/^-?\d{1,18}$/.test(text)) return text;
  throw new RpcArgumentError(`invalid big map id ${JSON.stringify(id)}`);
}

export function chainSegment(chain: string): string {
  if (CHAIN.test(chain)) return chain;
  throw new RpcArgumentError(`invalid chain ${JSON.stringify(chain)}`);
}

/** `?a=1&b=x` from the defined entries (booleans only when true), or `""`. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === false) continue;
    search.append(key, value === true ? 'true' : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
