import { expect } from 'chai';
import type { KnownCode, NormalizedBlock } from '../../../framework';
import { ContractDirectory } from '../../../framework/indexer/watch/ContractDirectory';
import { WatchList } from '../../../framework/indexer/watch/WatchList';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import type { Logger } from '../../../framework/util/Logger';
import { DEXTER_V1 } from '../../../plugins/defi-dex/adapters/dexter/types';
import { LB_CPMM } from '../../../plugins/defi-dex/adapters/lb/types';
import { PLENTY_STABLE_CTEZ, PLENTY_STABLE_TOKEN } from '../../../plugins/defi-dex/adapters/plenty-stable/types';
import { PLENTY_VOLATILE } from '../../../plugins/defi-dex/adapters/plenty/types';
import { QUIPU_STABLE_DEX4FACTORY } from '../../../plugins/defi-dex/adapters/quipuswap-stable/types';
import { VORTEX_FA12 } from '../../../plugins/defi-dex/adapters/vortex/types';
import { readFixtureJson } from '../../support/fixtures';

/*
 * The types the DEX adapters ship (`adapters/<family>/types.ts`) against real mainnet data: each equals the
 * script a node served for a pool of that version (pytezos recordings), the script's code hash is the one
 * listed, and every recorded call (its parameters and the storage after it) fits its own version and no
 * other, so a pool met with no node is read with the right types or not at all.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const ALL: readonly KnownCode[] = [
  LB_CPMM,
  DEXTER_V1,
  PLENTY_VOLATILE,
  PLENTY_STABLE_TOKEN,
  PLENTY_STABLE_CTEZ,
  VORTEX_FA12,
  QUIPU_STABLE_DEX4FACTORY,
];
const pytezos = (dir: string, file: string): Json => readFixtureJson('defi', 'pytezos', dir, file);
/** Stand-in addresses (the recordings do not name their pools). */
const POOL = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const USDTZ_POOL = 'KT1Tr2eG3eVmPRbymrbU2UppUmKjFPXomGG9';

/** The recordings per version: the pool's script and its recorded calls. */
const DEXTER_CALLS = ['addLiquidity', 'removeLiquidity', 'tokenToXtz'];
const CTEZ_CALLS = ['tez_to_ctez', 'tez_to_ctez_callback', 'ctez_to_tez', 'ctez_to_tez_callback'];
const recorded = (code: KnownCode, dir: string, calls: string[], script = dir) => ({ code, dir, script, calls });
const RECORDED = [
  recorded(DEXTER_V1, 'dexter_tzbtc_xtz', [...DEXTER_CALLS, 'tokenToToken']),
  recorded(DEXTER_V1, 'dexter_usdtz_xtz', [...DEXTER_CALLS, 'xtzToToken'], 'dexter_tzbtc_xtz'),
  recorded(PLENTY_VOLATILE, 'weth_e_ctez_plenty_volatile_swap', ['Swap', 'AddLiquidity', 'RemoveLiquidity']),
  recorded(PLENTY_STABLE_TOKEN, 'usdt_e_usdc_e_plenty_stable_swap', ['Swap', 'add_liquidity']),
  recorded(PLENTY_STABLE_CTEZ, 'ctez_tez_plenty_stable_swap', [...CTEZ_CALLS, 'add_liquidity', 'remove_liquidity']),
];

/** A block holding one applied call of POOL, as the recording has it (no script anywhere). */
function blockWith(call: Json): NormalizedBlock {
  const { entrypoint, value: parameters } = call.parameters;
  const op = { type: 'transaction', status: 'applied', receiver: POOL, entrypoint, parameters, storage: call.storage };
  return { level: 1, operations: [op] } as unknown as NormalizedBlock;
}

function directory(codes: readonly KnownCode[], lines: object[] = []): ContractDirectory {
  const log = { info: (o: object) => void lines.push(o) } as unknown as Logger;
  const d = new ContractDirectory(new WatchList(), log);
  for (const c of codes) d.known.add(c);
  return d;
}
const noNode = async (): Promise<unknown> => undefined;

describe('defi-dex: the real contract types the adapters ship', () => {
  for (const { code, script } of RECORDED.filter((r, i, all) => all.findIndex((x) => x.script === r.script) === i)) {
    it(`${code.name}: equals the recorded mainnet script (${script}) and lists its code hash`, () => {
      const real = ContractTypes.fromScript(pytezos(script, '__script__.json'))!;
      expect([code.types.parameterType, code.types.storageType]).to.deep.equal([real.parameterType, real.storageType]);
      expect(code.codeHashes).to.include(real.codeHash);
    });
  }

  for (const { code, dir, calls } of RECORDED) {
    it(`${code.name}: each recorded call of ${dir} fits this version and no other, with no node`, async () => {
      for (const name of calls) {
        const block = blockWith(pytezos(dir, `${name}.json`));
        expect(await directory(ALL).types(POOL, block, noNode), name).to.equal(code.types);
        const others = ALL.filter((c) => c !== code).map((c) => directory([c]).types(POOL, block, noNode));
        expect((await Promise.all(others)).filter(Boolean), name).to.deep.equal([]);
      }
    });
  }

  it('skips and logs a call like a known contract whose storage fits no version', async () => {
    const lines: object[] = [];
    const { storage } = pytezos('dexter_tzbtc_xtz', 'tokenToXtz.json');
    const call = { ...pytezos('usdt_e_usdc_e_plenty_stable_swap', 'Swap.json'), storage };
    const d = directory(ALL, lines);
    expect(await d.types(POOL, blockWith(call), noNode)).to.equal(undefined);
    expect(await d.types(POOL, { ...blockWith(call), level: 2 }, noNode)).to.equal(undefined);
    expect(lines).to.deep.equal([{ address: POOL, entrypoint: 'Swap' }]);
  });

  it('reads a script at hand with its own types, and logs one whose code hash no version lists', async () => {
    const script = pytezos('dexter_tzbtc_xtz', '__script__.json');
    const failing = (s: Json) => (s.prim === 'code' ? { ...s, args: [[{ prim: 'FAILWITH' }]] } : s);
    const other = { ...script, code: script.code.map(failing) };
    const lines: object[] = [];
    const d = directory(ALL, lines);
    const node = (s: Json) => async () => s;
    const empty = { level: 1, operations: [] } as unknown as NormalizedBlock;
    await d.types(POOL, empty, node(script));
    expect(lines).to.deep.equal([]);
    const types = await d.types(USDTZ_POOL, empty, node(other));
    expect(types!.codeHash).to.not.be.oneOf([...DEXTER_V1.codeHashes]);
    expect(lines).to.deep.equal([{ address: USDTZ_POOL, codeHash: types!.codeHash, like: 'dexter v1' }]);
  });
});
