import {
  type AccountBook,
  type ContractRegistry,
  type Fa12Token,
  KNOWN_ADDRESSES,
  type LaunchStep,
  modelOrigination,
} from '../../../../../framework/sandbox/extension';
import { LendingMarket } from './LendingMarket';
import { accrual, supply } from './traffic';

const LABEL = 'yupana';

/** A Yupana-style market over kUSD, tzBTC and ctez (token ids 0, 1, 2). */
export function registerYupana(contracts: ContractRegistry, book: AccountBook): void {
  const tokens = [KNOWN_ADDRESSES.kUSD, KNOWN_ADDRESSES.tzBTC, KNOWN_ADDRESSES.ctez].map((a) =>
    contracts.require<Fa12Token>(a),
  );
  contracts.add(new LendingMarket(book, contracts.derivedAddress(LABEL), tokens), 'Yupana-style lending');
}

export const yupanaMarket = (contracts: ContractRegistry): LendingMarket =>
  contracts.require(contracts.derivedAddress(LABEL));

/**
 * The deployer originates the market, then supplies a third of each token it holds (`mint`, after the market's
 * `updateInterest`, as the app batches them): the markets' first deposits, so borrows have something to take.
 */
export const launchYupana: readonly LaunchStep[] = [
  (ctx, deployer) => {
    const market = yupanaMarket(ctx.contracts);
    return [modelOrigination(ctx, deployer, market, 0n, (diff) => market.init(diff))];
  },
  (ctx, deployer) => {
    const market = yupanaMarket(ctx.contracts);
    return market.markets.flatMap((token, id) => {
      const amount = token.balanceOf(deployer) / 3n;
      return amount > 0n ? [accrual(ctx, market, deployer, id), supply(ctx, market, deployer, id, amount)] : [];
    });
  },
];
