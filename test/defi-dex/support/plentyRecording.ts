import { encodeAddress } from '@taquito/utils';
import { createHash } from 'node:crypto';
import { readFixtureJson } from '../../support/fixtures';

/*
 * Why: the recorded mainnet calls of Plenty's WETH.e/CTEZ volatile pool (pytezos fixtures: parameters, storage
 * after, big map diffs) as applied operations, for the adapter test and the reconciliation test alike.
 */
type Json = Record<string, unknown>;
export const PLENTY_DIR = ['defi', 'pytezos', 'weth_e_ctez_plenty_volatile_swap'] as const;
export const plentyLabel = (s: string) => createHash('sha256').update(s).digest('hex');
/** The fixtures do not name the pool: a stand-in KT1 (the script is what identifies the protocol). */
export const PLENTY_POOL = encodeAddress(`01${plentyLabel('plenty weth.e/ctez').slice(0, 40)}00`);

/** One recorded call as an applied manager operation to the pool (parameters, storage after, big map diffs). */
export function plentyContent(entrypoint: string, counter: number): Json {
  const f = readFixtureJson<Json>(...PLENTY_DIR, `${entrypoint}.json`);
  return {
    kind: 'transaction',
    source: 'tz1bGsPjPqEscSKoFMDJ1dz6Nwcjrw9Yp5wU',
    fee: '1000',
    counter: String(counter),
    gas_limit: '100000',
    storage_limit: '1000',
    amount: '0',
    destination: PLENTY_POOL,
    parameters: f.parameters,
    metadata: {
      balance_updates: [],
      operation_result: {
        status: 'applied',
        storage: f.storage,
        lazy_storage_diff: f.lazy_storage_diff ?? [],
        consumed_milligas: '1000',
        storage_size: '1000',
      },
    },
  };
}
