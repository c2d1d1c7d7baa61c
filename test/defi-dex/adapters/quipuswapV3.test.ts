import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../../framework/app/TzidxApp';
import type { NormalizedOperation } from '../../../framework/chain';
import { discoverPlugins } from '../../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxNode } from '../../../framework/sandbox';
import { KNOWN_ADDRESSES } from '../../../framework/sandbox/extension';
import { QUIPU_V3_LABEL } from '../../../plugins/defi-dex/adapters/quipuswap-v3/sim/sandbox';
import { canonical, indexSandbox } from '../../support/IndexHarness';
import { startTestInstance, TestInstance } from '../../support/TestInstance';
import { readTable } from '../../core-chain/support/tableReader';
import { callsTo, leadingInts } from '../support/poolCalls';

const X = KNOWN_ADDRESSES.ctez;
const Y = KNOWN_ADDRESSES.kUSD;

/**
 * num/den × 10^(da−db) as a decimal string of 18 fractional digits, truncated: the API's `fixed` format, written
 * here independently of the plugin's Decimal helpers so that they are checked, not reused.
 */
function fixedRatio(num: bigint, den: bigint, da: number, db: number): string {
  const scaled = (num * 10n ** BigInt(da + 18)) / (den * 10n ** BigInt(db));
  const digits = scaled.toString().padStart(19, '0');
  return `${digits.slice(0, -18)}.${digits.slice(-18)}`;
}

/** The string and int leaves of a raw Micheline value, in order. */
function leaves(v: unknown, out: { strings: string[]; ints: bigint[] } = { strings: [], ints: [] }) {
  if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (v && typeof v === 'object') {
    const n = v as { string?: string; int?: string; args?: unknown[] };
    if (n.string !== undefined) out.strings.push(n.string);
    if (n.int !== undefined) out.ints.push(BigInt(n.int));
    n.args?.forEach((x) => leaves(x, out));
  }
  return out;
}

describe('defi-dex: a QuipuSwap V3 pool on the sandbox chain', function () {
  this.timeout(240_000);
  const chain = new SandboxChain({ seed: 'dex-quipu-v3', profile: 'tiny', traffic: ['defi-dex:quipuswap-v3'] });
  const node = new SandboxNode(chain);
  const contract = chain.contracts.derivedAddress(QUIPU_V3_LABEL);
  const pool = `${contract}_0`;
  let t: TestInstance;
  let calls: NormalizedOperation[];
  let ops: NormalizedOperation[];
  /** Token moves of the pool's own internal FA1.2 transfers in a group, per token, into and out of the pool. */
  const moved = (hash: string) => {
    const m = { x: { in: 0n, out: 0n }, y: { in: 0n, out: 0n } };
    for (const o of ops.filter((o) => o.hash === hash && o.sender === contract && o.entrypoint === 'transfer')) {
      const { strings, ints } = leaves(o.parameters);
      const side = o.receiver === X ? m.x : o.receiver === Y ? m.y : undefined;
      if (side && strings[1] === contract) side.in += ints[0];
      if (side && strings[0] === contract) side.out += ints[0];
    }
    return m;
  };
  before(async () => {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    chain.bakeTo(120);
    await indexSandbox(t, chain);
    calls = callsTo(chain, contract);
    ops = canonical(chain).flatMap((b) => b.operations);
  });
  after(() => t?.close());

  const events = async () =>
    (
      await readTable(
        t,
        'dex_event',
        [
          'event_type',
          'volume_a',
          'volume_b',
          'volume_lp',
          'supply_a',
          'supply_b',
          'supply_lp',
          'tx_hash',
          'height',
          'sender',
        ],
        `pool=${pool}`,
      )
    ).filter((e) => e.event_type !== 'create');

  it("records every pool call; supplies equal the pool's token balances (token ledgers over RPC) after every block, liquidity the storage's", async () => {
    const rows = await events();
    expect(calls.length, 'pool calls').to.be.greaterThan(8);
    expect(rows.map((e) => e.tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    // The active liquidity is the storage's first field.
    calls.forEach((c, i) => expect(BigInt(rows[i].supply_lp), c.hash).to.equal(leadingInts(c.storage, 1)[0]));
    const [row] = await readTable(
      t,
      'dex_pool',
      ['entity', 'fees_bps', 'token_a', 'token_b', 'supply_a', 'supply_b'],
      `pool=${pool}`,
    );
    expect([row.entity, Number(row.fees_bps), row.token_a, row.token_b]).to.deep.equal([
      'quipu_v3',
      30,
      `${X}_0`,
      `${Y}_0`,
    ]);
    // Oracle: the tokens' ledger big maps (the first field of their storage) read at each block over RPC.
    const rpc = (level: number, path: string) => node.handle('GET', `/chains/main/blocks/${level}/context/${path}`);
    const ledger = (token: string, level: number) =>
      Number(leadingInts(JSON.parse(rpc(level, `contracts/${token}/storage`).body), 1)[0]);
    const keyHash = (id: number) => {
      for (const d of ops.flatMap((o) => o.bigMapDiffs ?? []))
        if (d.action === 'update' && d.bigMapId === id && (d.key as { string?: string }).string === contract)
          return d.keyHash;
      throw new Error(`no ledger entry of the pool in big map ${id}`);
    };
    const head = chain.headLevel;
    const ids = { x: ledger(X, head), y: ledger(Y, head) };
    const hashes = { x: keyHash(ids.x), y: keyHash(ids.y) };
    const balance = (level: number, side: 'x' | 'y') => {
      const res = rpc(level, `big_maps/${ids[side]}/${hashes[side]}`);
      return res.status === 404 ? 0n : BigInt((JSON.parse(res.body) as { int: string }).int);
    };
    const first = Number(rows[0].height);
    let checked = 0;
    for (let level = first; level <= head; level++) {
      const last = rows.filter((e) => Number(e.height) <= level).pop()!;
      expect([BigInt(last.supply_a), BigInt(last.supply_b)], `level ${level}`).to.deep.equal([
        balance(level, 'x'),
        balance(level, 'y'),
      ]);
      checked++;
    }
    expect(checked).to.equal(head - first + 1);
    expect([BigInt(row.supply_a), BigInt(row.supply_b)]).to.deep.equal([balance(head, 'x'), balance(head, 'y')]);
  });

  it('swaps: one trade per x_to_y/y_to_x with the amounts the token transfers moved and the fee_bps of the input; some cross ticks', async () => {
    const trades = await readTable(
      t,
      'dex_trade',
      ['side', 'base_volume', 'quote_volume', 'lp_fee', 'lp_fee_token', 'tx_hash'],
      `pool=${pool}`,
    );
    const swaps = calls.filter((c) => c.entrypoint === 'x_to_y' || c.entrypoint === 'y_to_x');
    expect(swaps.length, 'swaps').to.be.greaterThan(2);
    expect(
      swaps.some((c) => c.entrypoint === 'y_to_x') && swaps.some((c) => c.entrypoint === 'x_to_y'),
      'both ways',
    ).to.equal(true);
    expect(trades.map((r) => r.tx_hash)).to.deep.equal(swaps.map((c) => c.hash));
    swaps.forEach((c, i) => {
      const m = moved(c.hash);
      const xIn = c.entrypoint === 'x_to_y';
      const amountIn = xIn ? m.x.in : m.y.in;
      // x_to_y sells the base (X) for the quote (Y); the fee is fee_bps of what went in.
      expect(
        [
          trades[i].side,
          BigInt(trades[i].base_volume),
          BigInt(trades[i].quote_volume),
          BigInt(trades[i].lp_fee),
          trades[i].lp_fee_token,
        ],
        c.hash,
      ).to.deep.equal(
        xIn
          ? ['sell', m.x.in, m.y.out, (amountIn * 30n) / 10000n, '0']
          : ['buy', m.x.out, m.y.in, (amountIn * 30n) / 10000n, '1'],
      );
      expect(amountIn, `${c.hash} amount in = dx/dy`).to.equal(leadingInts(c.parameters, 1)[0]);
    });
    // A swap that crosses an initialized tick rewrites it in the `ticks` big map.
    expect(
      swaps.some((c) => (c.bigMapDiffs ?? []).some((d) => d.action === 'update')),
      'a swap crossed a tick',
    ).to.equal(true);
  });

  it("prices are the pool's marginal price sqrt_price²/2^160 (decimals applied), not its holdings' ratio: trades before and after, the pool record", async () => {
    const record = (await (await t.get(`/v1/dex/${pool}`)).json()) as {
      price: string;
      token_a: { decimals: number };
      token_b: { decimals: number };
    };
    const [da, db] = [record.token_a.decimals, record.token_b.decimals];
    expect(Number.isInteger(da) && Number.isInteger(db), 'decimals from the token metadata').to.equal(true);
    // The pool's price as each call's storage left it (sqrt_price is the storage's second field).
    const priceAfter = (storage: unknown): string => fixedRatio(leadingInts(storage, 2)[1] ** 2n, 1n << 160n, da, db);
    const trades = await readTable(t, 'dex_trade', ['price_before', 'price_after', 'tx_hash'], `pool=${pool}`);
    // The sandbox's pool exists from genesis: its first call (a position, not a trade) sets the first price.
    expect(calls[0].entrypoint).to.equal('set_position');
    let previous = '';
    let checked = 0;
    for (const c of calls) {
      const after = priceAfter(c.storage);
      const trade = trades.find((r) => r.tx_hash === c.hash);
      if (trade) {
        expect([trade.price_before, trade.price_after], c.hash).to.deep.equal([previous, after]);
        checked++;
      }
      previous = after;
    }
    expect(checked, 'trades').to.equal(trades.length);
    expect(record.price).to.equal(previous);
    // Holdings are not the price: the supplies' ratio differs.
    const [row] = await readTable(t, 'dex_pool', ['supply_a', 'supply_b'], `pool=${pool}`);
    expect(fixedRatio(BigInt(row.supply_b), BigInt(row.supply_a), da, db)).to.not.equal(record.price);
  });

  it('positions: set_position/update_position are deposits and withdrawals of the moved tokens, shares = the liquidity change of the owner', async () => {
    const rows = await events();
    const want = new Map<string, bigint>();
    let checked = 0;
    calls.forEach((c, i) => {
      if (c.entrypoint !== 'set_position' && c.entrypoint !== 'update_position') return;
      const m = moved(c.hash);
      const ints = leaves(c.parameters).ints;
      const delta = c.entrypoint === 'set_position' ? ints[4] : ints[1];
      const e = rows[i];
      if (delta > 0n)
        expect([e.event_type, BigInt(e.volume_a), BigInt(e.volume_b), BigInt(e.volume_lp)], c.hash).to.deep.equal([
          'deposit',
          m.x.in,
          m.y.in,
          delta,
        ]);
      else
        expect([e.event_type, BigInt(e.volume_a), BigInt(e.volume_b), BigInt(e.volume_lp)], c.hash).to.deep.equal([
          'withdraw',
          m.x.out,
          m.y.out,
          -delta,
        ]);
      // The sandbox's positions are changed by their owners.
      want.set(c.sender!, (want.get(c.sender!) ?? 0n) + delta);
      checked++;
    });
    expect(checked, 'liquidity calls').to.be.greaterThan(3);
    expect(
      rows.some((e) => e.event_type === 'withdraw'),
      'a withdrawal',
    ).to.equal(true);
    const positions = await readTable(t, 'dex_position', ['owner', 'shares'], `pool=${pool}`);
    expect(new Map(positions.map((p) => [p.owner, BigInt(p.shares)]))).to.deep.equal(want);
  });
});
