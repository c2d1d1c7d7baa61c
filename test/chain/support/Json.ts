/** Untyped node JSON as the tests read it from fixtures. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
