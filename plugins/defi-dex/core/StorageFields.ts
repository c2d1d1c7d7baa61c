import { member } from '../../../framework';

/*
 * Why: shipped versions are read through their generated readers; a pool storage of a layout no shipped version
 * has (the sandbox's simplified pools, which have no real script behind them) is read by field name, each field
 * checked for the plain type the decoder gives it, so nothing is cast.
 */
export function storageFields(v: unknown) {
  return {
    text: (k: string): string | undefined => {
      const x = member(v, k);
      return typeof x === 'string' ? x : undefined;
    },
    int: (k: string): bigint | undefined => {
      const x = member(v, k);
      return typeof x === 'bigint' ? x : undefined;
    },
    flag: (k: string): boolean | undefined => {
      const x = member(v, k);
      return typeof x === 'boolean' ? x : undefined;
    },
  };
}
