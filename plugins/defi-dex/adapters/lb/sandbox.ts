import {
  type AccountBook,
  BalanceUpdates,
  type BlockContext,
  type ContractRegistry,
  Fa12Token,
  type GenesisContext,
  KNOWN_ADDRESSES,
  LB_SUBSIDY,
} from '../../../../framework/sandbox/extension';
import { CpmmPool } from '../cpmm/CpmmPool';
import { seedPool } from '../cpmm/seedPool';

/** Liquidity Baking's mainnet addresses: the CPMM and its Sirius LQT token (tzBTC/tez). */
export const LB = { cpmm: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5', sirius: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo' } as const;

/** The Liquidity Baking CPMM and its LQT token, as the protocol originated them. */
export function registerLb(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const sirius = contracts.add(new Fa12Token(book, LB.sirius, 'SIRS', 0, errorPrefix), 'Sirius LQT');
  const pool = contracts.add(new CpmmPool(book, LB.cpmm, 'lb_cpmm', contracts.require(KNOWN_ADDRESSES.tzBTC), sirius, undefined), 'Liquidity Baking CPMM');
  contracts.addPaidStorageTarget(pool);
}

export const lbPool = (contracts: ContractRegistry): CpmmPool => contracts.require(LB.cpmm);

export function originateLbToken(g: GenesisContext): void {
  const sirius = g.contracts.require<Fa12Token>(LB.sirius);
  g.originate(sirius, 0n, (diff) => sirius.init(diff));
}

export function seedLb(g: GenesisContext): void {
  seedPool(g, lbPool(g.contracts), 3_300_000_000n, 5_200_000n * 1_000_000n, 50_000_000n, 5_200_000n * 1_000_000n);
}

/** The subsidy the protocol credits to the CPMM in every block (an implicit `%default` call). */
export function lbSubsidy(ctx: BlockContext): Record<string, unknown> {
  const pool = lbPool(ctx.contracts);
  const updates = new BalanceUpdates(ctx.book, 'subsidy');
  const storage = pool.subsidy(updates, LB_SUBSIDY);
  ctx.book.set(pool.address, 'script', { code: pool.code, storage });
  return {
    kind: 'transaction',
    storage,
    balance_updates: updates.items,
    consumed_milligas: String(206_000 + ctx.prng.int(4000)),
    storage_size: String(ctx.book.get(pool.address).storageSize),
  };
}
