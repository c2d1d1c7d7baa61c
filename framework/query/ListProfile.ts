/**
 * How a collection pages: the same engine serves /tables (rows as arrays, large pages) and plugin
 * collections such as DeFi lists (rows as objects, small pages, offset allowed).
 */
export interface ListProfile {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** Whether `limit=0` means "no rows" (true) or "the default" (false, as the original tables API). */
  readonly zeroLimitIsEmpty: boolean;
  readonly allowOffset: boolean;
  readonly rowShape: 'array' | 'object';
  /** Whether `.csv` is offered. */
  readonly allowCsv: boolean;
}

export const TABLE_PROFILE: ListProfile = {
  defaultLimit: 500,
  maxLimit: 50_000,
  zeroLimitIsEmpty: false,
  allowOffset: false,
  rowShape: 'array',
  allowCsv: true,
};

export const OBJECT_LIST_PROFILE: ListProfile = {
  defaultLimit: 100,
  maxLimit: 10_000,
  zeroLimitIsEmpty: true,
  allowOffset: true,
  rowShape: 'object',
  allowCsv: false,
};

/** Explorer lists (an account's operations, a contract's calls…): objects, 20 by default, at most 500. */
export const EXPLORER_LIST_PROFILE: ListProfile = {
  defaultLimit: 20,
  maxLimit: 500,
  zeroLimitIsEmpty: false,
  allowOffset: true,
  rowShape: 'object',
  allowCsv: false,
};
