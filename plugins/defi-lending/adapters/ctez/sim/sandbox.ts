import {
  type AccountBook,
  BalanceUpdates,
  type BlockContext,
  CallContext,
  type ContractRegistry,
  type LaunchStep,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  modelOrigination,
  originatedAddress,
  pickSource,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { CtezOvens, type OvenEntry } from './CtezOvens';

const LABEL = 'ctez-ovens';

/** A ctez 2-style main contract minting the sandbox's ctez token against tez in ovens. */
export function registerCtez(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  contracts.add(new CtezOvens(book, contracts.derivedAddress(LABEL), contracts.ctez, errorPrefix), 'ctez ovens');
}

export const ctezOvens = (contracts: ContractRegistry): CtezOvens => contracts.require(contracts.derivedAddress(LABEL));

/** The deployer originates the main contract, then creates the first oven with a tenth of its tez. */
export const launchCtez: readonly LaunchStep[] = [
  (ctx, deployer) => {
    const main = ctezOvens(ctx.contracts);
    return [modelOrigination(ctx, deployer, main, 0n, (diff) => main.init(diff, deployer))];
  },
  (ctx, deployer) => [createOven(ctx, deployer, ctx.book.get(deployer).balance / 10n)],
];

/** `create_oven` by `user` with `amount` tez (its next oven id); the oven is an internal origination. */
function createOven(ctx: BlockContext, user: string, amount: bigint): ManagerContent {
  const main = ctezOvens(ctx.contracts);
  const id = BigInt(main.ovens().filter((o) => o.owner === user).length);
  const address = originatedAddress(ctx.prng.bytes(32), 0);
  return content(ctx, user, main.address, 'create_oven', amount, (c, diff, transfer) =>
    main.create(c, diff, ctx.contracts, user, id, amount, address, transfer),
  );
}

/** One call whose parameter and effects are decided when it applies (after the group's earlier contents). */
function content(
  ctx: BlockContext,
  who: string,
  destination: string,
  entrypoint: string,
  amount: bigint,
  run: (c: CallContext, diff: LazyStorageDiff, transfer: BalanceUpdates) => Micheline,
): ManagerContent {
  const parameters: { entrypoint: string; value: Micheline } = { entrypoint, value: { int: '0' } };
  return {
    kind: 'transaction',
    fields: { amount: String(amount), destination, parameters },
    gasLimit: 12000,
    storageLimit: 1600,
    apply: () => {
      const call = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      const transfer = new BalanceUpdates(ctx.book);
      const value = run(call, diff, transfer);
      parameters.value = value;
      const main = ctezOvens(ctx.contracts);
      // A deposit's top-level call is the oven's `default`: its result is the oven's, the main contract's is internal.
      const target = destination === main.address ? main : ctx.contracts.require(destination);
      return {
        result: call.contractResult(
          target,
          destination === main.address ? diff : new LazyStorageDiff(ctx.book),
          12000,
          destination === main.address && entrypoint === 'create_oven' ? 1 : 0,
          transfer,
        ),
        internal: call.internal,
      };
    },
  };
}

/** An oven owner that can send an operation in this block. */
function owned(ctx: BlockContext, ovens: OvenEntry[]): OvenEntry | undefined {
  const ready = ovens.filter((o) => !ctx.usedSources.has(o.owner) && ctx.book.get(o.owner).balance > TEZ);
  return ready.length > 0 ? ctx.prng.pick(ready) : undefined;
}

/**
 * Light ctez traffic: an account creates an oven with tez, owners deposit, withdraw what the
 * collateral rule leaves, mint (half the time up to the limit, so the growing fee makes the oven
 * liquidatable) or burn ctez, and holders of ctez liquidate ovens over the limit.
 */
export function ctezCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const main = ctezOvens(ctx.contracts);
  const ovens = main.ovens();
  const r = ctx.prng.float();
  if (r < 0.15 || ovens.length < 3) {
    const user = pickSource(ctx, (a) => a.balance > 10n * TEZ && a.kind !== undefined);
    if (!user) return undefined;
    const amount = TEZ + ctx.prng.bigRange(0n, user.balance / 3n);
    return new ManagerGroupBuilder(ctx).build(user.address, [createOven(ctx, user.address, amount)]);
  }
  if (r < 0.3) {
    const bad = ovens.filter(
      (o) => o.ctezOutstanding > 0n && main.maxOutstanding(o.tezBalance) - o.ctezOutstanding < 2n,
    );
    if (bad.length === 0) return undefined;
    const o = ctx.prng.pick(bad);
    const quantity = o.ctezOutstanding / 4n;
    const liquidator = pickSource(
      ctx,
      (a) =>
        a.address !== o.owner && a.balance > TEZ && main.ctez.balanceOf(a.address) >= quantity && a.kind !== undefined,
    );
    if (!liquidator || quantity === 0n) return undefined;
    const who = liquidator.address;
    return new ManagerGroupBuilder(ctx).build(who, [
      content(ctx, who, main.address, 'liquidate_oven', 0n, (c, diff) =>
        main.liquidate(c, diff, who, o.id, o.owner, quantity, who),
      ),
    ]);
  }
  const o = owned(ctx, ovens);
  if (!o) return undefined;
  const who = o.owner;
  if (r < 0.45) {
    const amount = 1n + ctx.prng.bigRange(0n, ctx.book.get(who).balance / 4n);
    return new ManagerGroupBuilder(ctx).build(who, [
      content(ctx, who, o.address, 'default', amount, (c, diff, transfer) => {
        transfer.transfer(
          (b, x) => b.contract(who, x),
          (b, x) => b.contract(o.address, x),
          amount,
        );
        main.deposit(c, diff, o, amount);
        return { prim: 'Unit' };
      }),
    ]);
  }
  if (r < 0.6) {
    // What the collateral rule leaves (with a margin for the fee the call adds first).
    const locked = (o.ctezOutstanding * 16n * 105n) / 1500n + TEZ;
    const free = o.tezBalance > locked ? o.tezBalance - locked : 0n;
    if (free === 0n) return undefined;
    const amount = 1n + ctx.prng.bigRange(0n, free / 2n);
    return new ManagerGroupBuilder(ctx).build(who, [
      content(ctx, who, main.address, 'withdraw_from_oven', 0n, (c, diff) =>
        main.withdraw(c, diff, who, o.id, amount, who),
      ),
    ]);
  }
  if (r < 0.85) {
    const toMax = ctx.prng.chance(0.5);
    return new ManagerGroupBuilder(ctx).build(who, [
      content(ctx, who, main.address, 'mint_or_burn', 0n, (c, diff) => {
        // Decided after the call's housekeeping: the room the collateral rule leaves now (1 when none: the contract
        // rejects it).
        main.housekeeping(c);
        const now = main.current(o.id, who);
        const room = main.maxOutstanding(now.tezBalance) - now.ctezOutstanding;
        const q = toMax ? room : room / 3n;
        return main.mintOrBurn(c, diff, who, o.id, q > 0n ? q : 1n);
      }),
    ]);
  }
  const held = main.ctez.balanceOf(who);
  const burn = held < o.ctezOutstanding ? held : o.ctezOutstanding;
  if (burn === 0n) return undefined;
  const quantity = -(1n + ctx.prng.bigRange(0n, burn - 1n));
  return new ManagerGroupBuilder(ctx).build(who, [
    content(ctx, who, main.address, 'mint_or_burn', 0n, (c, diff) => main.mintOrBurn(c, diff, who, o.id, quantity)),
  ]);
}
