import {
  type AccountBook,
  type BlockContext,
  CallContext,
  type ContractRegistry,
  type GenesisContext,
  int,
  ManagerGroupBuilder,
  type ManagerContent,
  pair,
  pickSource,
  str,
  TEZ,
  unit,
} from '../../../../../framework/sandbox/extension';
import { SavingsPool } from './SavingsPool';
import { Vester } from './Vester';

/**
 * A kUSD savings pool (standing in for uUSD's) and its vesting contract; the first holder is the admin and plays the
 * engine.
 */
type Result = ReturnType<CallContext['contractResult']>;

const LABELS = { pool: 'youves-savings', vester: 'youves-vester' } as const;

export function registerYouvesSavings(contracts: ContractRegistry, book: AccountBook): void {
  const vester = new Vester(book, contracts.derivedAddress(LABELS.vester), contracts.kUSD);
  contracts.add(vester, 'Youves vesting contract');
  contracts.add(
    new SavingsPool(book, contracts.derivedAddress(LABELS.pool), contracts.kUSD, vester),
    'Youves kUSD savings pool',
  );
}

export const youvesSavings = (contracts: ContractRegistry): SavingsPool =>
  contracts.require(contracts.derivedAddress(LABELS.pool));

export function seedYouvesSavings(g: GenesisContext): void {
  const pool = youvesSavings(g.contracts);
  g.originate(pool.vester, 0n, (diff) => pool.vester.init(diff));
  g.originate(pool, 0n, (diff) => pool.init(diff, g.holders[0], g.holders[0]));
}

/**
 * Savings traffic: holders `deposit` part of their kUSD (savers may add to their stake), savers
 * `withdraw` (always everything, as the contract does), and now and then the engine (the admin) pays
 * the pool its share of the stability fees: a kUSD transfer that the next call folds into disc_factor.
 */
export function youvesSavingsCall(ctx: BlockContext, pool: SavingsPool): Record<string, unknown> | undefined {
  const token = pool.token;
  const engine = pool.state.engine;
  const saver = pickSource(ctx, (a) => a.balance > TEZ && pool.state.stakes[a.address] !== undefined, false);
  const holder = pickSource(
    ctx,
    (a) => a.balance > TEZ && a.address !== engine && token.balanceOf(a.address) > 0n,
    false,
  );
  const roll = ctx.prng.int(100);
  let content: ManagerContent;
  let who: string;
  if (roll < 20 && pool.state.totalStake > 0n && !ctx.usedSources.has(engine) && token.balanceOf(engine) > 0n) {
    who = engine;
    // A growth of up to ~0.5% of the pool, never more than the engine holds.
    const max = pool.state.lastBalance / 200n + 1n;
    const amount = 1n + ctx.prng.bigRange(0n, max < token.balanceOf(engine) ? max : token.balanceOf(engine) - 1n);
    content = call(
      who,
      token.address,
      'transfer',
      pair(str(who), str(pool.address), int(amount)),
      3000,
      (c) => token.transfer(c, who, who, pool.address, amount).result as Result,
    );
  } else if (saver && (!holder || roll < 55)) {
    who = saver.address;
    content = call(who, pool.address, 'withdraw', unit, 14000, (c) => pool.withdraw(c, who));
  } else if (holder) {
    who = holder.address;
    const amount = 1n + ctx.prng.bigRange(0n, token.balanceOf(who) / 3n);
    content = call(who, pool.address, 'deposit', int(amount), 12000, (c) => pool.deposit(c, who, amount));
  } else return undefined;
  return new ManagerGroupBuilder(ctx).build(who, [content]);

  function call(
    source: string,
    destination: string,
    entrypoint: string,
    value: unknown,
    gasLimit: number,
    run: (c: CallContext) => Result,
  ): ManagerContent {
    return {
      kind: 'transaction',
      fields: { amount: '0', destination, parameters: { entrypoint, value } },
      gasLimit,
      storageLimit: 400,
      apply: () => {
        const c = new CallContext(ctx, source);
        const result = run(c);
        return { result, internal: c.internal };
      },
    };
  }
}
