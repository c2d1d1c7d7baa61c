import {
  type Account,
  type AccountBook,
  type BlockContext,
  CallContext,
  type ContractRegistry,
  type Fa12Token,
  type GenesisContext,
  KNOWN_ADDRESSES,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  pickSource,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { type DexCall, StableDex } from './StableDex';

const LABEL = 'quipuswap-stable';
/** The mainnet kUSD/USDtz/uUSD pool's fees (factory `add_pool`): LP 0.07%, stakers 0.03%, referral 0.005%. */
const FEE = { lp: 7_000_000n, stakers: 3_000_000n, ref: 500_000n };
/** A = 200 (kept ×100). */
const AMP_F = 20_000n;

/**
 * A factory-style dex with two pools: kUSD/ctez (pool 0) and kUSD/ctez/tzBTC (pool 1). The rates
 * (rate_f = 10^18·precision) put the holders' raw balances on one scale, so the pools trade near par.
 */
export function registerQuipuswapStable(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const [kusd, ctez, tzbtc] = [KNOWN_ADDRESSES.kUSD, KNOWN_ADDRESSES.ctez, KNOWN_ADDRESSES.tzBTC].map((a) =>
    contracts.require<Fa12Token>(a),
  );
  const token = (t: Fa12Token, precision: bigint) => ({ token: t, rate: 10n ** 18n * precision, precision });
  const pools = [
    { tokens: [token(kusd, 1n), token(ctez, 100n)], ampF: AMP_F, fee: FEE },
    { tokens: [token(kusd, 1n), token(ctez, 100n), token(tzbtc, 1n)], ampF: AMP_F, fee: FEE },
  ];
  contracts.add(new StableDex(book, contracts.derivedAddress(LABEL), pools, errorPrefix), 'QuipuSwap StableSwap');
}

export const quipuswapStableDex = (contracts: ContractRegistry): StableDex =>
  contracts.require(contracts.derivedAddress(LABEL));

/** The dex starts with its pools listed and empty: the first traffic on a pool opens it. */
export function seedQuipuswapStable(g: GenesisContext): void {
  const dex = quipuswapStableDex(g.contracts);
  g.originate(dex, 0n, (diff) => dex.init(diff));
}

type Plan = [entrypoint: string, run: (call: CallContext, diff: LazyStorageDiff) => DexCall];

/** One call on a random pool: open it, else swap, invest, the three divests or an LP transfer. */
export function stableCall(ctx: BlockContext, dex: StableDex): Record<string, unknown> | undefined {
  const { prng } = ctx;
  const id = prng.int(dex.specs.length);
  const pool = dex.pool(id);
  const n = pool.tokens.length;
  const holds = (a: string, i: number) => dex.token(id, i).balanceOf(a);
  const funded = (a: { address: string; balance: bigint }) =>
    a.balance > TEZ && pool.tokens.every((_, i) => holds(a.address, i) > 0n);
  const lp = () => pickSource(ctx, (a) => a.balance > TEZ && dex.ledger.get(a.address, id) > 1000n, false);
  const part = (v: bigint, den: bigint) => 1n + prng.bigRange(0n, v / den);
  let user: Account | undefined;
  let plan: Plan;
  const r = prng.float();
  if (pool.totalSupply === 0n || (r >= 0.4 && r < 0.6)) {
    user = pickSource(ctx, funded, false);
    if (!user) return undefined;
    const who = user.address;
    // The opening deposit brings every token at par (normalized); later ones a random subset, at most a tenth of a
    // reserve each.
    const par = pool.tokens.map((x, i) => holds(who, i) * x.precision).reduce((a, b) => (a < b ? a : b)) / 4n;
    const amount = (i: number) =>
      pool.totalSupply === 0n
        ? par / pool.tokens[i].precision
        : part(min(holds(who, i) / 4n, pool.tokens[i].reserves / 10n), 1n);
    const inputs = new Map(
      pool.tokens.map((_, i): [number, bigint] => [i, pool.totalSupply === 0n || prng.float() < 0.6 ? amount(i) : 0n]),
    );
    if ([...inputs.values()].every((v) => v === 0n)) inputs.set(0, amount(0));
    plan = ['invest', (call, diff) => dex.invest(call, diff, who, id, inputs)];
  } else if (r < 0.4) {
    const i = prng.int(n);
    const j = (i + 1 + prng.int(n - 1)) % n;
    user = pickSource(ctx, (a) => a.balance > TEZ && holds(a.address, i) > 0n, false);
    if (!user) return undefined;
    const who = user.address;
    const max = min(holds(who, i) / 3n, pool.tokens[i].reserves / 20n);
    if (max < 1n) return undefined;
    const dx = part(max, 1n);
    plan = ['swap', (call, diff) => dex.swap(call, diff, who, id, i, j, dx)];
  } else if (r < 0.9) {
    user = lp();
    if (!user) return undefined;
    const who = user.address;
    const shares = part(dex.ledger.get(who, id), 3n);
    if (r < 0.7) plan = ['divest', (call, diff) => dex.divest(call, diff, who, id, shares)];
    else if (r < 0.8) {
      const i = prng.int(n);
      plan = ['divest_one_coin', (call, diff) => dex.divestOne(call, diff, who, id, shares, i)];
    } else {
      // Take out about what the shares are worth, unevenly: a third of it in one token.
      const amounts = new Map(
        pool.tokens.map((x, i): [number, bigint] => [
          i,
          (((x.reserves * shares) / pool.totalSupply / (i === 0 ? 3n : 1n)) * 9n) / 10n,
        ]),
      );
      plan = ['divest_imbalanced', (call, diff) => dex.divestImbalanced(call, diff, who, id, amounts)];
    }
  } else {
    user = lp();
    const to = pickSource(ctx, (a) => a.kind !== undefined && a.address !== user?.address, false);
    if (!user || !to) return undefined;
    const [from, dest] = [user.address, to.address];
    const shares = part(dex.ledger.get(from, id), 2n);
    plan = ['transfer', (_call, diff) => dex.transfer(diff, from, dest, id, shares)];
  }
  const who = user.address;
  const gas = 20_000;
  const content: ManagerContent = {
    kind: 'transaction',
    // A placeholder argument until the call is applied (a failed call keeps it).
    fields: { amount: '0', destination: dex.address, parameters: { entrypoint: plan[0], value: { int: '0' } } },
    gasLimit: gas,
    storageLimit: 400,
    apply: () => {
      const call = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      let applied: DexCall;
      try {
        applied = plan[1](call, diff);
      } catch (e) {
        // The curve met a zero balance: the contract fails on its division by zero too.
        if (e instanceof RangeError) dex.reject('DIV by 0');
        throw e;
      }
      const { entrypoint, value, grown } = applied;
      content.fields.parameters = { entrypoint, value };
      return { result: call.contractResult(dex, diff, gas, grown), internal: call.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(who, [content]);
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
