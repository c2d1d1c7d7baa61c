/** An owner's position in a pool: the key of the dex, farm and lending position tables (and of their read-ahead). */
export const positionKey = (pool: string, owner: string): string => `${pool}:${owner}`;
