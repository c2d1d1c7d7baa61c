import { encodeAddress } from '@taquito/utils';
import { expect } from 'chai';
import { BlockNormalizer } from '../../../framework/chain';
import type { RawBlock } from '../../../framework/chain/model/RawBlock';
import { BlockDispatcher } from '../../../framework/indexer/BlockDispatcher';
import { discoverFolders } from '../../../framework';
import type { DexAdapter, DexTradeAction } from '../../../plugins/defi-dex/core/DexAdapter';
import { DEX_ADAPTERS_DIR } from '../../../plugins/defi-dex/plugin';
import { carrierBlock, templeContents, watchingContext } from '../../indexer/support/templeGroups';
import { readFixtureJson } from '../../support/fixtures';
import { RecordingSink } from '../support/RecordingSink';

/*
 * Real mainnet blocks indexed as an archive run started mid-chain does: every DEX adapter of the plugin, no
 * node (no script for any contract), no watch, no origination seen. Every pool of a supported family
 * called in these blocks must be recognized at its call, with the types its adapter ships. The pools
 * were found by reading the blocks (calls of the families' entrypoints; the families from the pools'
 * storages): QuipuSwap v1 (4 pools in 1621538, 1 in 1676122), Dexter v1 USDtz/XTZ (1621538) and the
 * Liquidity Baking CPMM (2490368). The oracle is the raw block JSON: what moved and the storages.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const BLOCKS = [
  ['legacy-pre-ithaca/mainnet', 1621538],
  ['legacy-pre-ithaca/mainnet', 1676122],
  ['mainnet', 2490368],
] as const;
const POOLS: Record<string, string> = {
  KT1PL1YciLdwMbydt21Ax85iZXXyGSrKT2BE: 'quipu',
  KT1RRgK6eXvCWCiEGWhRZCSVGzhDzwXEEjS4: 'quipu',
  KT1WxgZ1ZSfMgmsSDDcUn8Xn577HwnQ7e1Lb: 'quipu',
  KT1X1LgNkQShpF9nRLYw3Dgdy4qp38MX617z: 'quipu',
  KT1K8A8DLUTVuHaDBCZiG6AJdvKJbtH8dqmN: 'quipu',
  KT1Tr2eG3eVmPRbymrbU2UppUmKjFPXomGG9: 'dexter',
  KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5: 'sirius',
};
const rawBlock = (dir: string, level: number): Json =>
  readFixtureJson('tezos-rpc', 'blocks', ...dir.split('/'), `mainnet-${level}.json`);
const address = (v: Json): string => v.string ?? encodeAddress(v.bytes);
const int = (v: Json): bigint => BigInt(v.int);

/** Every applied call (top-level or internal) of a listed pool, with what followed it in its content. */
function rawPoolCalls(): Array<{ level: number; hash: string; pool: string; op: Json; after: Json[] }> {
  return BLOCKS.flatMap(([dir, level]) =>
    (rawBlock(dir, level).operations.flat() as Json[]).flatMap((g) =>
      (g.contents as Json[]).flatMap((c) => {
        const ops = [{ ...c, result: c.metadata.operation_result }, ...(c.metadata.internal_operation_results ?? [])];
        return ops.flatMap((op, i) =>
          op.kind === 'transaction' && POOLS[op.destination] && op.result?.status === 'applied'
            ? [{ level, hash: g.hash as string, pool: op.destination as string, op, after: ops.slice(i + 1) }]
            : [],
        );
      }),
    ),
  );
}

describe('defi-dex: real mainnet blocks indexed with no node (an archive started mid-chain)', () => {
  const calls = rawPoolCalls();
  let sink: RecordingSink;
  before(async () => {
    sink = new RecordingSink();
    const d = new BlockDispatcher();
    for (const adapter of discoverFolders<DexAdapter>([DEX_ADAPTERS_DIR], 'adapter')) adapter.register(d, sink);
    for (const [dir, level] of BLOCKS) {
      const block = new BlockNormalizer().normalize(rawBlock(dir, level) as RawBlock);
      await d.dispatch(block, watchingContext(d, block, {}));
    }
  });

  it('recognizes every pool of the supported families called in the blocks, with its family', () => {
    // Premise from the raw JSON: each listed pool is called (applied) in the blocks.
    expect([...new Set(calls.map((c) => c.pool))].sort()).to.deep.equal(Object.keys(POOLS).sort());
    const declared = sink.calls.flatMap((x) => (x.call === 'pool' ? [[x.decl.contract, x.decl.entity]] : []));
    const entity = (e: string) => (e.startsWith('quipu_') ? 'quipu' : e);
    expect(declared.map(([pool, e]) => [pool, entity(e)]).sort()).to.deep.equal(Object.entries(POOLS).sort());
  });

  it('reports one action per call of a pool, each with the storage after it as supplies', () => {
    // The adapters run one after the other on a block: actions come per adapter, so they are compared sorted.
    const key = (level: number, hash: string, pool: string) => `${level} ${hash} ${pool}`;
    const actions = sink.actions();
    expect(actions.map((a) => key(a.level, a.origin.match.hash, a.pool.contract)).sort()).to.deep.equal(
      calls.map((c) => key(c.level, c.hash, c.pool)).sort(),
    );
    // Dexter v1 and the LB CPMM, read by position in their storage (the QuipuSwap v1 pools: quipuswapV1Mainnet).
    for (const c of calls.filter((x) => POOLS[x.pool] !== 'quipu')) {
      const found = actions.find((a) => a.origin.match.hash === c.hash && a.pool.contract === c.pool);
      const { supply } = found!;
      const items: Json[] = c.op.result.storage;
      const numbers =
        POOLS[c.pool] === 'dexter' ? [items[3], items[4], items[1].args[1].args[1]] : [items[0], items[1], items[2]];
      expect([...supply.reserves, supply.lpSupply], c.pool).to.deep.equal(numbers.map(int));
    }
  });

  it("reads the Dexter and LB trades' amounts as the chain moved them", () => {
    const trades = sink.actions('trade').filter((t) => POOLS[t.pool.contract] !== 'quipu');
    const expected = calls
      .filter((c) => POOLS[c.pool] !== 'quipu')
      .map((c) => {
        const out = c.after.filter((o) => o.source === c.pool);
        const transfer = out.find((o) => o.parameters?.entrypoint === 'transfer').parameters.value;
        const tokens = int(transfer.args[1].args[1]);
        const tez = out.filter((o) => !o.parameters).map((o) => [o.destination, BigInt(o.amount)]);
        // tokenToXtz: the pool pulls the tokens and pays tez; xtzToToken: tez come with the call, the pool pays
        // tokens (LB burns a part of the tez sent: paid to the null address).
        return c.op.parameters.entrypoint === 'tokenToXtz'
          ? { tokenIn: 0, amountIn: tokens, amountOut: tez[0][1], receiver: tez[0][0] }
          : {
              tokenIn: 1,
              amountIn: BigInt(c.op.amount),
              amountOut: tokens,
              receiver: address(transfer.args[1].args[0]),
            };
      });
    const got = trades.map((t) => t.action as DexTradeAction);
    const read = got.map(({ tokenIn, amountIn, amountOut, receiver }) => ({ tokenIn, amountIn, amountOut, receiver }));
    expect(read).to.deep.equal(expected);
  });
});

describe('defi-dex: the recorded Temple groups (real mainnet groups) indexed with no node', () => {
  const NAMES = ['temple-wallet-sirs-xtz-swap', 'xtz-kusd-swap', 'wtz-arbitraging'];
  // Found in the recordings (SOURCES.md): the LB CPMM, two QuipuSwap v1 FA2 pools (WTZ, CRNCHY) and the
  // SpicySwap pair. QuipuSwap v2's DexCore (three swaps) is read with its shipped types and watched, but its
  // pairs are not declared with no node (their tokens are in a big map the swaps do not write: docs/defi-dex.md).
  const DEXCORE = 'KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43';
  const EXPECTED = [
    ['KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5', 'sirius'],
    ['KT1VXBX6NwapYf9Sq6LsQVr4SdsDq3ta1nss', 'quipu_token'],
    ['KT1KrhWvNabCZXNkBgxyxz3RG2MX1MVabwRd', 'quipu_token'],
    ['KT1HHZnspZoRZgtFns5LHYHFkXgQ1WGPrxFr', 'spicy_v1'],
  ];

  it('recognizes the LB CPMM, the QuipuSwap v1 pools and the Spicy pair; LB supplies are the storages after', async () => {
    const sink = new RecordingSink();
    const d = new BlockDispatcher();
    for (const adapter of discoverFolders<DexAdapter>([DEX_ADAPTERS_DIR], 'adapter')) adapter.register(d, sink);
    const block = carrierBlock(NAMES);
    await d.dispatch(block, watchingContext(d, block, {}));
    // Premise from the raw JSON: each expected pool is called (applied) in the recordings.
    const raw = NAMES.flatMap((n) => templeContents(n) as Json[]).flatMap((c) => [
      { ...c, result: c.metadata.operation_result },
      ...(c.metadata.internal_operation_results ?? []),
    ]);
    const called = (pool: string) => raw.filter((o) => o.destination === pool && o.result?.status === 'applied');
    for (const [pool] of EXPECTED) expect(called(pool), pool).to.not.have.length(0);
    const declared = sink.calls.flatMap((x) => (x.call === 'pool' ? [[x.decl.contract, x.decl.entity]] : []));
    expect(declared).to.deep.equal(EXPECTED);
    expect(called(DEXCORE)).to.not.have.length(0);
    expect(d.contracts.watches.roles(DEXCORE)).to.deep.equal(['defi-dex:quipuswap-v2']);
    const lb = EXPECTED[0][0];
    const storages = called(lb).map((o) => (o.result.storage as Json[]).slice(0, 3).map(int));
    const supplies = sink.actions().filter((a) => a.pool.contract === lb);
    expect(supplies.map((a) => [...a.supply.reserves, a.supply.lpSupply])).to.deep.equal(storages);
  });
});
