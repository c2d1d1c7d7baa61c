import {
  type AccountBook,
  BalanceUpdates,
  type BlockContext,
  type ContractRegistry,
  Fa12Token,
  type GenesisContext,
  KNOWN_ADDRESSES,
  LB_SUBSIDY,
  NULL_ADDRESS,
} from '../../../../../framework/sandbox/extension';
import { LbCpmm } from './pool';

/** Liquidity Baking's mainnet addresses: the CPMM and its Sirius LQT token (tzBTC/tez). */
export const LB = {
  cpmm: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5',
  sirius: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo',
} as const;

/** The Liquidity Baking CPMM and its LQT token, as the protocol originated them. */
export function registerLb(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const sirius = contracts.add(new Fa12Token(book, LB.sirius, 'SIRS', 0, errorPrefix), 'Sirius LQT');
  const pool = contracts.add(
    new LbCpmm(book, LB.cpmm, contracts.require(KNOWN_ADDRESSES.tzBTC), sirius),
    'Liquidity Baking CPMM',
  );
  contracts.addPaidStorageTarget(pool);
}

export const lbPool = (contracts: ContractRegistry): LbCpmm => contracts.require(LB.cpmm);

/**
 * The CPMM and then its LQT token as the Granada migration originated them (tezos/tezos-mirror,
 * src/proto_alpha/lib_protocol/liquidity_baking_migration.ml at b9d0ad02e99025c8094d9b4bb9b8273fd47b3cb1):
 * 1 tzBTC satoshi, 100 mutez and 100 LQT, the LQT's 100 held by the null address ("registered as a
 * liquidity provider"). Every later share is minted by an `addLiquidity` of the traffic.
 */
export function seedLb(g: GenesisContext): void {
  const pool = lbPool(g.contracts);
  const sirius = g.contracts.require<Fa12Token>(LB.sirius);
  g.originate(pool, 100n, (diff) => {
    pool.init(diff, 1n, 100n, 100n);
    pool.token.mint(diff, pool.address, 1n);
  });
  g.originate(sirius, 0n, (diff) => {
    sirius.init(diff);
    sirius.mint(diff, NULL_ADDRESS, 100n);
  });
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
