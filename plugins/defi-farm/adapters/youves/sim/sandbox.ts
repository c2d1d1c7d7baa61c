import {
  type AccountBook,
  type BlockContext,
  CallContext,
  type ContractRegistry,
  int,
  type LaunchStep,
  ManagerGroupBuilder,
  type ManagerContent,
  modelOrigination,
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

/**
 * The deployer originates the vesting contract and the pool (it is their admin and engine), then deposits a third of
 * its kUSD: the pool's first stake.
 */
export const launchYouvesSavings: readonly LaunchStep[] = [
  (ctx, deployer) => {
    const pool = youvesSavings(ctx.contracts);
    return [
      modelOrigination(ctx, deployer, pool.vester, 0n, (diff) => pool.vester.init(diff)),
      modelOrigination(ctx, deployer, pool, 0n, (diff) => pool.init(diff, deployer, deployer)),
    ];
  },
  (ctx, deployer) => {
    const pool = youvesSavings(ctx.contracts);
    const amount = pool.token.balanceOf(deployer) / 3n;
    return amount > 0n ? [deposit(ctx, pool, deployer, amount)] : [];
  },
];

const deposit = (ctx: BlockContext, pool: SavingsPool, who: string, amount: bigint): ManagerContent =>
  call(ctx, who, pool.address, 'deposit', int(amount), 12000, (c) => pool.deposit(c, who, amount));

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
      ctx,
      who,
      token.address,
      'transfer',
      pair(str(who), str(pool.address), int(amount)),
      3000,
      (c) => token.transfer(c, who, who, pool.address, amount).result,
    );
  } else if (saver && (!holder || roll < 55)) {
    who = saver.address;
    content = call(ctx, who, pool.address, 'withdraw', unit, 14000, (c) => pool.withdraw(c, who));
  } else if (holder) {
    who = holder.address;
    const amount = 1n + ctx.prng.bigRange(0n, token.balanceOf(who) / 3n);
    content = deposit(ctx, pool, who, amount);
  } else return undefined;
  return new ManagerGroupBuilder(ctx).build(who, [content]);
}

/** A call of `source` whose effects `run` computes once applied. */
function call(
  ctx: BlockContext,
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
