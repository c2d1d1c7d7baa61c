import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { plainValue } from '../../../framework/michelson/PlainValue';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain } from '../../../framework/sandbox';
import { declaration, poolTokens, stablePool } from '../../../plugins/defi-dex/adapters/quipuswap-stable/pool';
import { readFixtureJson } from '../../support/fixtures';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable, type CsvRow } from '../../core-chain/support/tableReader';

/*
 * QuipuSwap StableSwap. The recorded mainnet factory calls (pytezos fixtures) decode: `add_pool`'s
 * parameters, read with the factory's own entrypoint types, name the tokens, fees and A that the
 * adapter reads back from the new dex's `pools`/`tokens` big maps in the same operation's diff. On the
 * sandbox chain every pool's records are compared with the dex's raw storage diffs decoded here (not
 * with the adapter's decoder), trades with this file's own StableSwap invariant and fee formula, and
 * positions with the FA2 ledger.
 */
type M = { prim?: string; args?: M[]; int?: string; string?: string; bytes?: string } | M[];
type Recorded = {
  parameters: { entrypoint: string; value: unknown };
  storage: M;
  lazy_storage_diff: Array<{ id: string; diff: { action: string; updates?: Array<{ key: M; value: M }> } }>;
};
const FACTORY = 'quipuswap_stableswap_amm_factory';
const recorded = (e: string) => readFixtureJson<Recorded>('defi', 'pytezos', FACTORY, `${e}.json`);
const factoryType = (e: string) =>
  readFixtureJson<{ entrypoints: Record<string, unknown> }>('defi', 'pytezos', FACTORY, '__entrypoints__.json')
    .entrypoints[e];

/** A right comb (`Pair a (Pair b …)`, or the node's flat sequence) as its fields; a nested first field stays whole. */
function fields(v: M): M[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => (i === v.length - 1 ? fields(x) : [x]));
  return v.prim === 'Pair' ? [v.args![0], ...fields(v.args![1])] : [v];
}
const nat = (v: M): bigint => BigInt((v as { int: string }).int);
const elts = (v: M): Array<[bigint, M]> =>
  (v as M[]).map((e) => [nat((e as { args: M[] }).args[0]), (e as { args: M[] }).args[1]]);

// ---- The oracle: StableSwap as the contract's formulas say (A ×100, fees in parts of 10^10). ----
const E18 = 10n ** 18n;
const FEE_DEN = 10n ** 10n;
const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
const dist = (a: bigint, b: bigint) => (a > b ? a - b : b - a);

interface RawPool {
  ampF: bigint;
  /** [rate_f, precision_multiplier_f, reserves] per token. */
  tokens: Array<[bigint, bigint, bigint]>;
  fee: [bigint, bigint, bigint];
  staked: bigint;
  supply: bigint;
}

/** A raw `pools[id]` value (the A ramp is over in the sandbox: initial = future). */
function rawPool(v: M): RawPool {
  const f = fields(v);
  return {
    ampF: nat(f[2]),
    tokens: elts(f[4]).map(([, x]) => fields(x).map(nat) as [bigint, bigint, bigint]),
    fee: fields(f[5]).map(nat) as [bigint, bigint, bigint],
    staked: nat(fields(f[6])[2]),
    supply: nat(f[7]),
  };
}

/** D: A·n^n·Σx + D = A·D·n^n + D^(n+1)/(n^n·Πx), by D ← (A·n·S + n·D_P)·D / ((A·n − 1)·D + (n+1)·D_P). */
function oracleD(xs: bigint[], ampF: bigint): bigint {
  const n = BigInt(xs.length);
  const s = xs.reduce((a, b) => a + b);
  let d = s;
  for (let last = -1n; dist(d, last) > 1n;) {
    const dP = xs.reduce((num) => num * d, d) / xs.reduce((den, x) => den * x * n, 1n);
    last = d;
    d = (((ampF * n * s) / 100n + dP * n) * d) / (((ampF * n - 100n) * d) / 100n + (n + 1n) * dP);
  }
  return d;
}

/** The new balance y of token j when token i's normalized balance becomes x, D held. */
function oracleY(xs: bigint[], i: number, j: number, x: bigint, ampF: bigint): bigint {
  const n = BigInt(xs.length);
  const d = oracleD(xs, ampF);
  const rest = xs.map((v, k) => (k === i ? x : v)).filter((_, k) => k !== j);
  const c = ceil(
    ceil(
      rest.reduce((num) => num * d, d),
      rest.reduce((den, v) => den * v * n, 1n),
    ) *
      d *
      100n,
    ampF * n * n,
  );
  const b = rest.reduce((a, v) => a + v, 0n) + (d * 100n) / (ampF * n);
  let y = d;
  for (let last = 0n; dist(y, last) > 1n;) [last, y] = [y, ceil(y * y + c, 2n * y + b - d)];
  return y;
}

/**
 * A swap of `dx` of token i for j: dy off the curve, then the fees (stakers' share to the LPs when nothing is staked).
 */
function oracleSwap(p: RawPool, i: number, j: number, dx: bigint, devF: bigint) {
  const xs = p.tokens.map(([rate, , r]) => (rate * r) / E18);
  const y = oracleY(xs, i, j, xs[i] + (dx * p.tokens[i][0]) / E18, p.ampF);
  const dy = ((xs[j] - y) * E18) / p.tokens[j][0];
  const [lpF, stakersF, refF] = p.fee;
  const cut = (f: bigint) => (dy * f) / FEE_DEN;
  const lp = cut(lpF) + (p.staked === 0n ? cut(stakersF) : 0n);
  const leaving = cut(refF) + cut(devF) + (p.staked === 0n ? 0n : cut(stakersF));
  return { out: dy - lp - leaving, lp, leaving, ref: cut(refF), dev: cut(devF) };
}

describe('defi-dex: QuipuSwap StableSwap', function () {
  describe('the recorded mainnet factory calls', () => {
    const add = recorded('add_pool');
    const params = plainValue(factoryType('add_pool'), add.parameters.value) as {
      a_constant: bigint;
      input_tokens: Array<{ fa12?: string; fa2?: { token_address: string; token_id: bigint } }>;
      tokens_info: Map<bigint, { rate_f: bigint; precision_multiplier_f: bigint }>;
      fees: { lp_f: bigint; stakers_f: bigint; ref_f: bigint };
    };
    /**
     * The new dex's big maps in the factory's diff (temporary ids): the one whose key-0 value is a pool, and the token
     * list.
     */
    const created = (pick: (v: M) => boolean) =>
      add.lazy_storage_diff
        .flatMap((d) => d.diff.updates ?? [])
        .find((u) => (u.key as { int?: string }).int === '0' && pick(u.value))!.value;

    it('add_pool: the adapter reads back the tokens, fees and A the factory was given', () => {
      expect([params.a_constant, params.input_tokens.length], 'premise: a 3-token pool, A = 200').to.deep.equal([
        200n,
        3,
      ]);
      const pool = stablePool(created((v) => Array.isArray(v) && v.length === 8));
      const tokens = poolTokens(
        created(
          (v) =>
            Array.isArray(v) &&
            (v[0] as { prim?: string })?.prim === 'Elt' &&
            ['Left', 'Right'].includes(((v[0] as { args: M[] }).args[1] as { prim: string }).prim),
        ),
      );
      const want = params.input_tokens.map((x) =>
        x.fa12
          ? { standard: 'fa1.2', contract: x.fa12 }
          : { standard: 'fa2', contract: x.fa2!.token_address, tokenId: x.fa2!.token_id },
      );
      expect(tokens).to.deep.equal(want);
      expect(pool!.fee).to.deep.equal({ lp: params.fees.lp_f, stakers: params.fees.stakers_f, ref: params.fees.ref_f });
      expect([pool!.reserves, pool!.totalSupply]).to.deep.equal([[0n, 0n, 0n], 0n]);
      // Fees in parts of 10^10 as basis points: (7000000 + 3000000 + 500000) / 10^6.
      const bps = Number(params.fees.lp_f + params.fees.stakers_f + params.fees.ref_f) / 1e6;
      expect(declaration('KT1dex', 0, tokens!, pool!).feesBps).to.equal(String(bps));
      // A ×100 and the normalization the factory was given, as the pool stores them.
      const raw = rawPool(created((v) => Array.isArray(v) && v.length === 8));
      expect(raw.ampF).to.equal(params.a_constant * 100n);
      expect(raw.tokens.map(([rate, prec]) => [rate, prec])).to.deep.equal(
        [...params.tokens_info.values()].map((x) => [x.rate_f, x.precision_multiplier_f]),
      );
      // Each rate brings a token to 18 decimals: rate = 10^18 · precision multiplier.
      for (const [rate, prec] of raw.tokens) expect(rate).to.equal(E18 * prec);
    });

    it('start_dex: the opening amounts are per token index of the same pool', () => {
      const start = plainValue(factoryType('start_dex'), recorded('start_dex').parameters.value) as Map<
        bigint,
        { token: { fa12?: string; fa2?: { token_address: string } }; value: bigint }
      >;
      expect([...start.keys()]).to.deep.equal([0n, 1n, 2n]);
      const named = [...start.values()].map((x) => x.token.fa12 ?? x.token.fa2!.token_address);
      expect(named).to.deep.equal(params.input_tokens.map((x) => x.fa12 ?? x.fa2!.token_address));
      // Normalized by the pool's precision multipliers, the three deposits are equal (100 of each stablecoin).
      const norm = [...start.values()].map(
        (x, i) => x.value * params.tokens_info.get(BigInt(i))!.precision_multiplier_f,
      );
      expect(new Set(norm.map(String)).size).to.equal(1);
    });
  });

  describe('on the sandbox chain', function () {
    this.timeout(300_000);
    const chain = new SandboxChain({ seed: 'qs-d', profile: 'tiny', traffic: ['defi-dex:quipuswap-stable'] });
    /**
     * The factory's dev fee (its `dev_fee` view), from the recorded factory storage: dev_store = (dev_address,
     * dev_fee_f, lambdas).
     */
    const devF = nat(fields(fields(fields(recorded('add_pool').storage)[0])[0])[1]);
    let t: TestInstance;
    let dex: string;
    let calls: NormalizedOperation[];
    /** The dex's big map ids, from its raw storage: inner record fields 4 (tokens), 6 (pools), 7 (ledger). */
    let maps: { pools: number; ledger: number };
    before(async () => {
      t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
      chain.bakeTo(240);
      await indexSandbox(t, chain);
      const ops = canonical(chain).flatMap((b) => b.operations);
      dex = ops.find((o) => o.entrypoint === 'divest_one_coin' && o.isSuccess)!.receiver!;
      calls = ops.filter((o) => o.receiver === dex && o.isSuccess && o.storage !== undefined);
      const inner = fields(fields(calls[0].storage as M)[0]);
      maps = { pools: Number(nat(inner[6])), ledger: Number(nat(inner[7])) };
    });
    after(() => t?.close());

    /** The `pools` updates of a call: pool id → raw pool after it. */
    const poolsAfter = (o: NormalizedOperation) =>
      new Map(
        o.bigMapDiffs.flatMap((d) =>
          d.action === 'update' && d.bigMapId === maps.pools ? [[nat(d.key as M), rawPool(d.value as M)] as const] : [],
        ),
      );
    const LEGS = ['a', 'b', 'c', 'd'];

    it('supplies: every event and every pool row equal the raw pools[pool_id] of the storage after the call', async () => {
      const events = await readTable(
        t,
        'dex_event',
        ['pool', 'event_type', 'supply_a', 'supply_b', 'supply_c', 'supply_d', 'supply_lp', 'tx_hash'],
        `contract=${dex}`,
      );
      const last = new Map<string, RawPool>();
      let compared = 0;
      const byHash = new Map<string, CsvRow[]>();
      for (const e of events.filter((x) => x.event_type !== 'create'))
        byHash.set(e.tx_hash, [...(byHash.get(e.tx_hash) ?? []), e]);
      for (const c of calls) {
        for (const [id, p] of poolsAfter(c)) {
          const pool = `${dex}_${id}`;
          last.set(pool, p);
          const rows = (byHash.get(c.hash) ?? []).filter((e) => e.pool === pool);
          expect(rows.length, `${c.entrypoint} ${c.hash}`).to.equal(1);
          const supply = LEGS.map((l) => rows[0][`supply_${l}`]).filter((v) => v !== '');
          expect([...supply, rows[0].supply_lp], c.hash).to.deep.equal(
            [...p.tokens.map(([, , r]) => r), p.supply].map(String),
          );
          compared++;
        }
      }
      const pools = await readTable(
        t,
        'dex_pool',
        ['pool', 'entity', 'num_tokens', 'supply_a', 'supply_b', 'supply_c', 'supply_d', 'supply_lp', 'fees_bps'],
        `contract=${dex}`,
      );
      expect(pools.map((p) => p.pool).sort()).to.deep.equal([...last.keys()].sort());
      for (const row of pools) {
        const p = last.get(row.pool)!;
        const supply = LEGS.map((l) => row[`supply_${l}`]).filter((v) => v !== '');
        expect([row.entity, Number(row.num_tokens), ...supply, row.supply_lp]).to.deep.equal([
          'quipu_stable',
          p.tokens.length,
          ...p.tokens.map(([, , r]) => String(r)),
          String(p.supply),
        ]);
        expect(Number(row.fees_bps)).to.equal(Number(p.fee[0] + p.fee[1] + p.fee[2]) / 1e6);
      }
      expect(pools.map((p) => Number(p.num_tokens)).sort(), 'a 2-token and a 3-token pool').to.deep.equal([2, 3]);
      expect(compared, 'pool changes compared').to.be.greaterThan(20);
    });

    it('trades: the output and fees follow the StableSwap invariant and fee formula from the pool before', async () => {
      const events = new Map(
        (
          await readTable(
            t,
            'dex_event',
            ['volume_a', 'volume_b', 'volume_c', 'tx_hash'],
            `contract=${dex}&event_type=trade`,
          )
        ).map((e) => [e.tx_hash, e]),
      );
      const trades = new Map(
        (await readTable(t, 'dex_trade', ['lp_fee', 'referral_fee', 'dev_fee', 'tx_hash'], `contract=${dex}`)).map(
          (e) => [e.tx_hash, e],
        ),
      );
      const state = new Map<bigint, RawPool>();
      let checked = 0;
      for (const c of calls) {
        const after = poolsAfter(c);
        if (c.entrypoint === 'swap') {
          const [id, i, j, dx] = fields((c.raw as { parameters: { value: M } }).parameters.value)
            .slice(0, 4)
            .map(nat);
          const before = state.get(id)!;
          const want = oracleSwap(before, Number(i), Number(j), dx, devF);
          const volumes = LEGS.slice(0, 3).map((l) => events.get(c.hash)![`volume_${l}`]);
          expect([volumes[Number(i)], volumes[Number(j)]], c.hash).to.deep.equal([String(dx), String(want.out)]);
          // The LP fee stays in the reserves; the rest leaves them with the output.
          const now = after.get(id)!;
          expect([now.tokens[Number(i)][2], now.tokens[Number(j)][2]], c.hash).to.deep.equal([
            before.tokens[Number(i)][2] + dx,
            before.tokens[Number(j)][2] - want.out - want.leaving,
          ]);
          // The adapter recovers dy from the output and the reserves: exact, or one raw unit under.
          const tr = trades.get(c.hash)!;
          expect(Number(want.lp - BigInt(tr.lp_fee)), c.hash).to.be.within(0, 1);
          expect([BigInt(tr.referral_fee), BigInt(tr.dev_fee)], c.hash).to.deep.equal([want.ref, want.dev]);
          checked++;
        }
        for (const [id, p] of after) state.set(id, p);
      }
      expect(checked, 'swaps compared').to.be.greaterThan(5);
      expect(trades.size).to.equal(checked);
    });

    /*
     * A swap of token i for token j, in any pool (the 3-token one included): the dex takes dx of token i from the
     * sender and pays token j's dy after fees to the receiver, two `typed_transfer`s (madfish-solutions/
     * quipuswap-stable-core `contracts/partials/dex_core/lambdas.ligo` `swap`, `contracts/partials/utils.ligo`
     * `typed_transfer`, @ a3e3499de6d3e0bb504b78d8f3130b5ab8ca0aa4).
     * The oracle is the chain's token moves of the call, not the adapter's figures.
     */
    it("trades between any two tokens name them (base = the lower index) with the call's token moves", async () => {
      const trades = await readTable(
        t,
        'dex_trade',
        ['pool', 'side', 'base_token', 'quote_token', 'base_volume', 'quote_volume', 'receiver', 'tx_hash'],
        `contract=${dex}`,
      );
      const pools = await readTable(t, 'dex_pool', ['pool', 'token_a', 'token_b', 'token_c'], `contract=${dex}`);
      const tokenOf = new Map(pools.map((p) => [p.pool, [p.token_a, p.token_b, p.token_c]]));
      const ops = canonical(chain).flatMap((b) => b.operations);
      /** FA1.2 `transfer`s in the call's operation group: (token, from, to, amount). */
      const moves = (hash: string) =>
        ops
          .filter((o) => o.hash === hash && o.isInternal && o.isSuccess && o.entrypoint === 'transfer')
          .map((o) => {
            const [from, to, amount] = fields(o.parameters as M);
            return {
              token: `${o.receiver}_0`,
              from: (from as { string: string }).string,
              to: (to as { string: string }).string,
              amount: nat(amount),
            };
          });
      const pairs = new Set<string>();
      let checked = 0;
      for (const c of calls.filter((x) => x.entrypoint === 'swap')) {
        const [id, i, j] = fields((c.raw as { parameters: { value: M } }).parameters.value)
          .slice(0, 3)
          .map((v) => Number(nat(v)));
        const tr = trades.find((x) => x.tx_hash === c.hash)!;
        const [base, quote] = [Math.min(i, j), Math.max(i, j)];
        expect([tr.pool, Number(tr.base_token), Number(tr.quote_token), tr.side], c.hash).to.deep.equal([
          `${dex}_${id}`,
          base,
          quote,
          i === quote ? 'buy' : 'sell',
        ]);
        const tokens = tokenOf.get(tr.pool)!;
        const m = moves(c.hash);
        const paidIn = m.filter((x) => x.token === tokens[i] && x.to === dex).reduce((a, x) => a + x.amount, 0n);
        const paidOut = m
          .filter((x) => x.token === tokens[j] && x.from === dex && x.to === tr.receiver)
          .reduce((a, x) => a + x.amount, 0n);
        expect(m.length, `${c.hash}: one transfer in, one out`).to.equal(2);
        const [baseMoved, quoteMoved] = i === base ? [paidIn, paidOut] : [paidOut, paidIn];
        expect([tr.base_volume, tr.quote_volume], c.hash).to.deep.equal([String(baseMoved), String(quoteMoved)]);
        if (tokens[2] !== '') pairs.add(`${base}${quote}`);
        checked++;
      }
      expect(checked, 'swaps compared').to.equal(trades.length);
      expect([...pairs].sort(), "the 3-token pool's three pairs traded").to.deep.equal(['01', '02', '12']);
    });

    it('tzidx check defi: every StableSwap trade checked against its moves, none off', async () => {
      const found = [];
      for (const c of t.app.checks('defi').filter((x) => x.name === 'dex.trade_moves'))
        found.push(...(await c.run({})));
      expect(found.filter((v) => v.subject.includes(dex))).to.deep.equal([]);
    });

    it('positions: shares per owner and pool equal the FA2 ledger', async () => {
      const ledger = new Map<string, bigint>();
      const seen = new Set<string>();
      for (const c of calls) {
        seen.add(c.entrypoint!);
        for (const d of c.bigMapDiffs) {
          if (d.bigMapId !== maps.ledger || (d.action !== 'update' && d.action !== 'remove') || !d.key) continue;
          const [owner, id] = fields(d.key as M);
          const key = `${dex}_${nat(id)}:${(owner as { string: string }).string}`;
          ledger.set(key, d.action === 'update' ? nat(d.value as M) : 0n);
        }
      }
      expect([...seen].sort(), 'calls of every kind').to.include.members([
        'divest',
        'divest_imbalanced',
        'divest_one_coin',
        'invest',
        'swap',
        'transfer',
      ]);
      const positions = await readTable(t, 'dex_position', ['pool', 'owner', 'shares'], `contract=${dex}`);
      const got = new Map(positions.map((p) => [`${p.pool}:${p.owner}`, BigInt(p.shares)]));
      expect(got).to.deep.equal(ledger);
      expect([...got.values()].filter((v) => v > 0n).length, 'open positions').to.be.greaterThan(3);
    });
  });
});
