import {
  type AccountBook,
  type BlockContext,
  CallContext,
  type ContractRegistry,
  type Fa12Token,
  KNOWN_ADDRESSES,
  type LaunchStep,
  LazyStorageDiff,
  ManagerGroupBuilder,
  type ManagerContent,
  type Micheline,
  modelOrigination,
  pickSource,
  TEZ,
} from '../../../../../framework/sandbox/extension';
import { TFarm, type TFarmCall, type TFarmParams } from './TFarm';

/** The TFarm contract; its admin is its deployer (the first token holder), who adds the farms by its first calls. */
const LABEL = 'quipuswap-tfarm';
const P = 10n ** 18n;

export function registerQuipuswapFarm(contracts: ContractRegistry, book: AccountBook): void {
  contracts.add(
    new TFarm(book, contracts.derivedAddress(LABEL), (address) => contracts.require<Fa12Token>(address)),
    'QuipuSwap TFarm',
  );
}

export const quipuswapFarm = (contracts: ContractRegistry): TFarm => contracts.require(contracts.derivedAddress(LABEL));

/** The deployer originates the TFarm as its admin; it adds the farms by its first calls (the traffic's). */
export const launchQuipuswapFarm: readonly LaunchStep[] = [
  (ctx, deployer) => {
    const farm = quipuswapFarm(ctx.contracts);
    return [modelOrigination(ctx, deployer, farm, 0n, (diff) => farm.init(diff, deployer))];
  },
];

/**
 * The farms the admin adds: Plenty ctez/kUSD LP → ctez (10 days, 5 min timelock, 1% harvest and
 * 0.5% early-withdrawal fees, a rate with a fractional part), and ctez → ctez ending after 5 minutes
 * (the same token staked and paid, and a farm that runs out).
 */
function farmParams(ctx: BlockContext, fid: number): TFarmParams {
  const now = BigInt(Math.floor(Date.parse(ctx.timestamp) / 1000));
  const ctez = ctx.contracts.require<Fa12Token>(KNOWN_ADDRESSES.ctez);
  return fid === 0
    ? {
        stake: ctx.contracts.require<Fa12Token>(ctx.contracts.derivedAddress('plenty-lp')),
        reward: ctez,
        harvestFee: P / 100n,
        withdrawalFee: P / 200n,
        timelock: 300n,
        rewardPerSecond: 20n * P + 123_456_789n,
        start: now,
        end: now + 864_000n,
      }
    : {
        stake: ctez,
        reward: ctez,
        harvestFee: P / 50n,
        withdrawalFee: 0n,
        timelock: 0n,
        rewardPerSecond: 1_000n * P,
        start: now,
        end: now + 300n,
      };
}

/**
 * TFarm traffic: the admin adds the two farms first; then holders `deposit`, stakers `harvest` once
 * their timelock is over or `withdraw` (mostly everything).
 */
export function quipuswapFarmCall(ctx: BlockContext, farm: TFarm): Record<string, unknown> | undefined {
  const count = farm.state.list.length;
  const now = BigInt(Math.floor(Date.parse(ctx.timestamp) / 1000));
  let user;
  let call: TFarmCall;
  if (count < 2) {
    user = pickSource(ctx, (a) => a.address === farm.state.admin && a.balance > TEZ);
    call = { entrypoint: 'add_new_farm', farm: farmParams(ctx, count) };
  } else {
    const fid = ctx.prng.int(count);
    const f = farm.farm(fid)!;
    const stake = ctx.contracts.require<Fa12Token>(f.stake);
    const staker = pickSource(
      ctx,
      (a) =>
        a.balance > TEZ && ((farm.user(fid, a.address)?.staked ?? 0n) > 0n || farm.claimable(fid, a.address, now) > 0n),
    );
    const holder = pickSource(
      ctx,
      (a) => a.balance > TEZ && a.address !== farm.state.admin && stake.balanceOf(a.address) > 0n,
      false,
    );
    const useStaker = staker && (!holder || ctx.prng.chance(0.75));
    user = useStaker ? staker : holder;
    if (!user) return undefined;
    const u = farm.user(fid, user.address);
    const unlocked = !u || now - u.lastStaked >= f.timelock || now >= f.end;
    if (!useStaker)
      call = { entrypoint: 'deposit', fid, amount: 1n + ctx.prng.bigRange(0n, stake.balanceOf(user.address) / 2n) };
    else if (unlocked && (u!.staked === 0n || ctx.prng.chance(0.5))) call = { entrypoint: 'harvest', fid, amount: 0n };
    else if (u!.staked > 0n)
      call = {
        entrypoint: 'withdraw',
        fid,
        amount: ctx.prng.chance(0.7) ? u!.staked : 1n + ctx.prng.bigRange(0n, u!.staked - 1n),
      };
    else return undefined;
  }
  if (!user) return undefined;
  const who = user.address;
  const parameters: { entrypoint: string; value: Micheline } = { entrypoint: call.entrypoint, value: { int: '0' } };
  const content: ManagerContent = {
    kind: 'transaction',
    fields: { amount: '0', destination: farm.address, parameters },
    gasLimit: 9000,
    storageLimit: 400,
    apply: () => {
      const c = new CallContext(ctx, who);
      const diff = new LazyStorageDiff(ctx.book);
      const { value, grown } = farm.apply(c, diff, who, call);
      parameters.value = value;
      return { result: c.contractResult(farm, diff, 9000, grown), internal: c.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(who, [content]);
}
