/**
 * An integer column of a DeFi row as a bigint, null as 0: entity rows hold bigints, rows a plugin built
 * itself may hold numbers or decimal text. Shared by the DEX, farm and lending cores.
 */
export const big = (v: unknown): bigint => BigInt((v ?? 0) as bigint | number | string);
