import { expect } from 'chai';
import { mutezToTez } from '../../framework';
import { bakerCapacity } from '../../plugins/baking/explorer/BakerCapacity';
import { readFixtureJson } from '../support/fixtures';

type Json = Record<string, unknown>;
const constants = (name: string): Json => readFixtureJson<Json>('tezos-rpc', 'context', 'constants', name);
const delegate = (name: string): Json =>
  readFixtureJson<Json>('tezos-rpc', 'context', 'delegates', 'from-test-code', name);
const tez = (mutez: bigint): number => Number(mutezToTez(mutez));
const NONE = { own: 0n, external: 0n, liquid: 0n, delegated: 0n, stakingLimit: null, depositsLimit: null };

/** The capacity rules per era, on recorded constants and delegate answers of real nodes (BakerCapacity). */
describe('baking: baker capacities of each era, on recorded node answers', () => {
  it('Emmy: unknown (rolls and per-cycle deposits are not indexed)', () => {
    const got = bakerCapacity(constants('constants-mainnet-block-1.json'), {
      ...NONE,
      own: 10n ** 12n,
      liquid: 10n ** 12n,
    });
    expect(got.figures).to.deep.equal({
      staking_capacity: null,
      delegation_capacity: null,
      is_over_staked: null,
      is_over_delegated: null,
      is_full: null,
    });
    expect(bakerCapacity(undefined, NONE).room).to.equal(null);
  });

  it('Ithaca: the full balance (or a lower deposits limit) over frozen_deposits_percentage; no external staking', () => {
    const c = constants('constants-mainnet-ithaca.json');
    const d = delegate('ithacanet-delegate.json');
    const full = BigInt(d.full_balance as string);
    const own = BigInt(d.frozen_deposits as string);
    const holdings = { ...NONE, own, liquid: full - own, delegated: BigInt(d.delegated_balance as string) };
    const free = bakerCapacity(c, holdings);
    const staking = BigInt(d.staking_balance as string);
    expect(free.figures.staking_capacity).to.equal(0);
    expect(free.figures.is_over_staked).to.equal(false);
    // The node's staking balance against the capacity: this baker delegates little, it has room.
    expect(free.figures.is_over_delegated).to.equal(
      staking * BigInt(c.frozen_deposits_percentage as number) > full * 100n,
    );
    expect(free.room! + staking).to.equal(BigInt(Math.round(free.figures.delegation_capacity! * 1e6)));
    // A deposits limit below the full balance lowers the capacity in proportion; above it, nothing changes.
    const limited = bakerCapacity(c, { ...holdings, depositsLimit: full / 4n });
    expect(limited.figures.delegation_capacity).to.equal(
      tez(((full / 4n) * 100n) / BigInt(c.frozen_deposits_percentage as number)),
    );
    expect(bakerCapacity(c, { ...holdings, depositsLimit: full * 2n }).figures).to.deep.equal(free.figures);
    // With a limit of 0 every delegated tez is over the capacity.
    expect(bakerCapacity(c, { ...holdings, depositsLimit: 0n }).figures).to.include({
      delegation_capacity: 0,
      is_over_delegated: true,
      is_full: true,
    });
  });

  it('Paris+: a baker that accepts no external stake (limit 0) has no staking capacity; its delegation is within 9× its stake as the node counts it', () => {
    const c = constants('from-test-code/taquito-constants-paris-rio-era.json');
    const d = delegate('rionet-delegate.json');
    const params = d.active_staking_parameters as Json;
    const own = BigInt(d.own_staked as string);
    const got = bakerCapacity(c, {
      ...NONE,
      own,
      external: BigInt(d.external_staked as string),
      liquid: BigInt(d.own_delegated as string),
      delegated: BigInt(d.external_delegated as string),
      stakingLimit: BigInt(params.limit_of_staking_over_baking_millionth as number),
    });
    expect(got.figures.staking_capacity).to.equal(
      tez((own * BigInt(params.limit_of_staking_over_baking_millionth as number)) / 1_000_000n),
    );
    expect(got.figures.delegation_capacity).to.equal(tez(own * BigInt(c.limit_of_delegation_over_baking as number)));
    expect(got.figures.is_over_delegated).to.equal(
      BigInt(d.total_delegated as string) > own * BigInt(c.limit_of_delegation_over_baking as number),
    );
    // Unknown staking limit: the staking capacity is unknown, and so is over-delegation once someone stakes.
    expect(bakerCapacity(c, { ...NONE, own, external: 1n }).figures).to.include({
      staking_capacity: null,
      is_over_staked: null,
      is_over_delegated: null,
    });
    expect(bakerCapacity(c, { ...NONE, own }).figures).to.include({ staking_capacity: null, is_over_delegated: false });
  });
});
