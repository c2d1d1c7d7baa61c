import { expect } from 'chai';
import type { KnownCode, NormalizedBlock } from '../../../framework';
import { ContractDirectory } from '../../../framework/indexer/watch/ContractDirectory';
import { WatchList } from '../../../framework/indexer/watch/WatchList';
import { IndexerStatus } from '../../../framework/indexer/IndexerStatus';
import { UndecodableValues } from '../../../framework/indexer/UndecodableValues';
import { ContractTypes } from '../../../framework/michelson/ContractTypes';
import { dexterV1Code } from '../../../plugins/defi-dex/adapters/dexter/types.gen';
import {
  plentyStableCtezCode,
  plentyStableTokenCode,
} from '../../../plugins/defi-dex/adapters/plenty-stable/types.gen';
import { plentyVolatileCode } from '../../../plugins/defi-dex/adapters/plenty/types.gen';
import { quipuV2DexcoreCode } from '../../../plugins/defi-dex/adapters/quipuswap-v2/types.gen';
import { plainValue } from '../../../framework/michelson/PlainValue';
import type { Logger } from '../../../framework/util/Logger';
import { DEXTER_V1 } from '../../../plugins/defi-dex/adapters/dexter/types';
import { LB_CPMM } from '../../../plugins/defi-dex/adapters/lb/types';
import { PLENTY_STABLE_CTEZ, PLENTY_STABLE_TOKEN } from '../../../plugins/defi-dex/adapters/plenty-stable/types';
import { PLENTY_VOLATILE, PLENTY_VOLATILE_SYSTEM_FEE } from '../../../plugins/defi-dex/adapters/plenty/types';
import { QUIPU_STABLE_DEX4FACTORY } from '../../../plugins/defi-dex/adapters/quipuswap-stable/types';
import { QUIPU_V2_DEXCORE } from '../../../plugins/defi-dex/adapters/quipuswap-v2/types';
import { QUIPU_V3_POOL } from '../../../plugins/defi-dex/adapters/quipuswap-v3/types';
import { VORTEX_FA12 } from '../../../plugins/defi-dex/adapters/vortex/types';
import {
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_NO_UPDATES,
} from '../../../plugins/defi-dex/adapters/youves-flat/types';
import { templeContents } from '../../indexer/support/templeGroups';
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
  PLENTY_VOLATILE_SYSTEM_FEE,
  PLENTY_STABLE_TOKEN,
  PLENTY_STABLE_CTEZ,
  VORTEX_FA12,
  QUIPU_STABLE_DEX4FACTORY,
  QUIPU_V2_DEXCORE,
  YOUVES_FLAT_FA2_CASH,
  YOUVES_FLAT_FA12_CASH,
  YOUVES_FLAT_NO_UPDATES,
  // Derived from source, fits one recorded mainnet call (quipuswapV3Mainnet.test.ts): here checked to claim no other.
  QUIPU_V3_POOL,
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

/** DexCore's applied calls in the Temple recordings (real mainnet groups), as `blockWith` takes them. */
const DEXCORE = 'KT1J8Hr3BP8bpbfmgGpRPoC9nAMSYtStZG43';
const dexCoreCalls = (): Json[] =>
  ['xtz-kusd-swap', 'wtz-arbitraging']
    .flatMap((n) => templeContents(n) as Json[])
    .flatMap((c) => [{ ...c, result: c.metadata.operation_result }, ...(c.metadata.internal_operation_results ?? [])])
    .filter((o) => o.destination === DEXCORE && o.result?.status === 'applied')
    .map((o) => ({
      parameters: o.parameters,
      storage: o.result.storage,
      diff: o.result.lazy_storage_diff,
      tez: o.amount,
    }));

/** The big maps a storage type declares, by field name: their key and value types. */
function bigMaps(type: Json, out = new Map<string, { key: Json; value: Json }>()): typeof out {
  if (type?.prim === 'big_map') out.set(type.annots[0].slice(1), { key: type.args[0], value: type.args[1] });
  else for (const a of type?.args ?? []) bigMaps(a, out);
  return out;
}

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
/** A generated reader (`types.gen.ts`), as the tests call it. */
type Reader = {
  call(step: { entrypoint?: string; parameters: unknown }): object | undefined;
  storage(v: unknown): unknown;
};

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

  const GENERATED = new Map<KnownCode, Reader>([
    [DEXTER_V1, dexterV1Code],
    [PLENTY_VOLATILE, plentyVolatileCode],
    [PLENTY_STABLE_TOKEN, plentyStableTokenCode],
    [PLENTY_STABLE_CTEZ, plentyStableCtezCode],
  ]);
  for (const { code, dir, calls } of RECORDED) {
    it(`${code.name}: each recorded call of ${dir}, decoded, has the generated types (types.gen.ts)`, () => {
      for (const name of calls) {
        const { parameters, storage } = pytezos(dir, `${name}.json`);
        const decoded = {
          entrypoint: parameters.entrypoint,
          parameters: code.types.parameters(parameters.entrypoint, parameters.value),
          storage: code.types.storage(storage),
        };
        const reader = GENERATED.get(code)!;
        expect(reader.call(decoded), name).to.deep.equal({ entrypoint: decoded.entrypoint, args: decoded.parameters });
        expect(reader.storage(decoded.storage), name).to.deep.equal(decoded.storage);
        // Read as another version's, the same storage is refused.
        expect(quipuV2DexcoreCode.storage(decoded.storage), name).to.equal(undefined);
      }
    });
  }

  it('quipuswap v2 dexcore: each recorded mainnet call, decoded, has the generated types', () => {
    for (const call of dexCoreCalls()) {
      const { entrypoint, value } = call.parameters;
      const types = QUIPU_V2_DEXCORE.types;
      const read = quipuV2DexcoreCode.call({ entrypoint, parameters: types.parameters(entrypoint, value) });
      expect(read?.entrypoint).to.equal(entrypoint);
      expect(typeof quipuV2DexcoreCode.storage(types.storage(call.storage))?.storage.pairs).to.equal('number');
    }
  });

  it('quipuswap v2 dexcore (derived from source): each recorded mainnet call fits this version and no other', async () => {
    const calls = dexCoreCalls();
    // Premise from the raw JSON: two swaps, each closed by the contract's own `close`, in the two groups.
    expect(calls.map((c) => c.parameters.entrypoint)).to.deep.equal([
      'swap',
      'close',
      'swap',
      'close',
      'swap',
      'close',
    ]);
    for (const call of calls) {
      const block = blockWith(call);
      expect(await directory(ALL).types(POOL, block, noNode)).to.equal(QUIPU_V2_DEXCORE.types);
      const others = ALL.filter((c) => c !== QUIPU_V2_DEXCORE).map((c) => directory([c]).types(POOL, block, noNode));
      expect((await Promise.all(others)).filter(Boolean)).to.deep.equal([]);
    }
  });

  it('quipuswap v2 dexcore: names the big maps as the chain wrote them (each diff entry reads with its types)', () => {
    const types = bigMaps(QUIPU_V2_DEXCORE.types.storageType);
    const written = new Set<string>();
    for (const call of dexCoreCalls()) {
      const storage = QUIPU_V2_DEXCORE.types.storage(call.storage, { strict: true }) as Json;
      const ids = new Map<number, string>(
        [...types.keys()].map((name) => [name in storage.storage ? storage.storage[name] : storage[name], name]),
      );
      const keys: Record<string, unknown[]> = {};
      for (const { id, diff } of call.diff ?? []) {
        const name = ids.get(Number(id))!;
        for (const u of diff.updates ?? []) {
          written.add(name);
          // A big map typed wrongly (or a type off by one field) fails here: the keys and values differ in shape.
          const read = (part: 'key' | 'value') => plainValue(types.get(name)![part], u[part], { strict: true });
          expect(read('value'), `${name} value`).to.not.equal(undefined);
          (keys[name] ??= []).push(read('key'));
        }
      }
      if (call.parameters.entrypoint !== 'swap') continue;
      // A swap paid in tez (tez sent with the call) accrues its fees per pair in the tez fee maps; one paid in a
      // token, per token: keyed by the route's first pair and the call's referrer, as the call gave them.
      const p = QUIPU_V2_DEXCORE.types.parameters('swap', call.parameters.value) as Json;
      const [pairId, referrer] = [p.swaps[0].pair_id, p.referrer];
      if (BigInt(call.tez) > 0n) {
        expect(keys.interface_tez_fee).to.deep.equal([{ 0: pairId, 1: referrer }]);
        expect(keys.auction_tez_fee).to.deep.equal([pairId]);
      } else expect((keys.interface_fee as Json[]).map((k) => k[1])).to.deep.equal([referrer]);
    }
    // The pairs the swaps moved, the fees they accrued (token and tez, interface and auction): the chain's own ids.
    const names = ['pairs', 'interface_fee', 'interface_tez_fee', 'auction_fee', 'auction_tez_fee'];
    expect([...written].sort()).to.deep.equal(names.sort());
  });

  it('skips and logs a call like a known contract whose storage fits no version', async () => {
    const lines: object[] = [];
    const { storage } = pytezos('dexter_tzbtc_xtz', 'tokenToXtz.json');
    const call = { ...pytezos('usdt_e_usdc_e_plenty_stable_swap', 'Swap.json'), storage };
    const d = directory(ALL, lines);
    expect(await d.types(POOL, blockWith(call), noNode)).to.equal(undefined);
    expect(await d.types(POOL, { ...blockWith(call), level: 2 }, noNode)).to.equal(undefined);
    expect(lines).to.deep.equal([{ address: POOL, entrypoint: 'Swap' }]);
  });

  it('records an unknown build (warning, metric); one that decodes otherwise is refused by the generated reader', async () => {
    const script = pytezos('dexter_tzbtc_xtz', '__script__.json');
    // Another body: the same types. Another storage too: a field renamed (what a mis-decode would misread).
    const failing = (s: Json) => (s.prim === 'code' ? { ...s, args: [[{ prim: 'FAILWITH' }]] } : s);
    const renamed = (s: Json) =>
      s.prim === 'storage' ? JSON.parse(JSON.stringify(s).replace('":lqtTotal"', '":lqtSupply"')) : failing(s);
    const [other, retyped] = [failing, renamed].map((f) => ({ ...script, code: script.code.map(f) }));
    const lines: object[] = [];
    const status = new IndexerStatus();
    const log = { warn: (o: object) => void lines.push(o) } as unknown as Logger;
    const d = new ContractDirectory(new WatchList(), log, new UndecodableValues(status, log));
    for (const c of ALL) d.known.add(c);
    const node = (s: Json) => async () => s;
    const empty = { level: 1, operations: [] } as unknown as NormalizedBlock;
    expect((await d.types(POOL, empty, node(script)))!.codeHash).to.be.oneOf([...DEXTER_V1.codeHashes]);
    expect(lines).to.deep.equal([]);
    // Both carry Dexter's signature (and LB's and Vortex's, parts of it) with a code hash Dexter does not list.
    const [hash, rehash] = [other, retyped].map((s) => ContractTypes.fromScript(s)!.codeHash);
    expect([hash, rehash]).to.not.include.members([null, ...DEXTER_V1.codeHashes]);
    expect((await d.types(USDTZ_POOL, empty, node(other)))!.codeHash).to.equal(hash);
    const own = await d.types(DEXCORE, empty, node(retyped));
    expect(own!.codeHash).to.equal(rehash);
    await d.types(DEXCORE, { ...empty, level: 2 }, node(retyped));
    const line = { plugin: 'contracts', kind: 'unknown_code_version', like: 'dexter v1' };
    expect(lines).to.deep.equal([
      { ...line, address: USDTZ_POOL, codeHash: hash, decodes: true },
      { ...line, address: DEXCORE, codeHash: rehash, decodes: false },
    ]);
    const metric = await status.registry.getSingleMetricAsString('tzidx_undecodable_values_total');
    expect(metric).to.include('tzidx_undecodable_values_total{plugin="contracts",kind="unknown_code_version"} 2');
    // The adapter reads through the generated reader: the renamed build's storage is refused (the pool skipped).
    const { storage } = pytezos('dexter_tzbtc_xtz', 'tokenToXtz.json');
    expect(dexterV1Code.storage(DEXTER_V1.types.storage(storage))).to.not.equal(undefined);
    expect(dexterV1Code.storage(own!.storage(storage))).to.equal(undefined);
    // A family with a build of no listed hash (LB's, Vortex's) cannot tell an unknown build: nothing recorded.
    const dexterless = new ContractDirectory(new WatchList(), log);
    for (const c of ALL.filter((c) => c !== DEXTER_V1)) dexterless.known.add(c);
    expect((await dexterless.types(USDTZ_POOL, empty, node(retyped)))!.codeHash).to.equal(rehash);
    expect(lines).to.have.length(2);
  });
});
