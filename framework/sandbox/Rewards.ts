import type { Baker } from './AccountBook';
import type { BalanceUpdates } from './BalanceUpdates';
import type { SandboxProfile } from './profiles';

/** Baking reward of a round-0 block with the fixed portion only (mutez; Tallinn mainnet figures). */
export const BAKING_REWARD_FIXED = 1_657_491n;
/** Attesting rewards issued per block, paid per cycle in proportion to attested slots. */
export const ATTESTING_REWARD_PER_BLOCK = 2_841_000n;
/** Bonus per attestation slot above the threshold, on a 7000-slot committee. */
export const BONUS_PER_SLOT_7000 = 710n;
export const SEED_NONCE_TIP = 5_208n;
export const VDF_TIP = 5_208n;
export const LB_SUBSIDY = 500_000n;

/**
 * Pays a minted reward to a baker the way Paris+ splits it: the part earned by the baker's own stake
 * goes to `baker_own_stake`, the external stakers' part to the shared `{delegate}` deposits minus the
 * baker's edge (`baker_edge`), and the delegated part to the spendable balance.
 */
export function payReward(
  updates: BalanceUpdates,
  category: string,
  baker: Baker,
  liquid: bigint,
  reward: bigint,
): void {
  const own = baker.ownStaked;
  const shared = baker.sharedStaked;
  const total = own + shared + liquid;
  if (total <= 0n) {
    updates.transfer(
      (b, c) => b.minted(category, c),
      (b, c) => b.contract(baker.address, c),
      reward,
    );
    return;
  }
  const ownPart = (reward * own) / total;
  const sharedGross = (reward * shared) / total;
  const edge = sharedGross / 10n;
  const sharedPart = sharedGross - edge;
  const liquidPart = reward - ownPart - sharedGross;
  if (ownPart > 0n)
    updates.transfer(
      (b, c) => b.minted(category, c),
      (b, c) => b.deposits({ baker_own_stake: baker.address }, c),
      ownPart,
    );
  if (edge > 0n)
    updates.transfer(
      (b, c) => b.minted(category, c),
      (b, c) => b.deposits({ baker_edge: baker.address }, c),
      edge,
    );
  if (sharedPart > 0n)
    updates.transfer(
      (b, c) => b.minted(category, c),
      (b, c) => b.deposits({ delegate: baker.address }, c),
      sharedPart,
    );
  if (liquidPart > 0n)
    updates.transfer(
      (b, c) => b.minted(category, c),
      (b, c) => b.contract(baker.address, c),
      liquidPart,
    );
}

/**
 * `GET …/context/issuance/expected_issuance` of the sandbox (Ushuaia's per-block fields) for the
 * block's cycle and the `consensus_rights_delay` next: its rates do not change, the bonus is what a
 * fully attested block pays on the profile's committee.
 */
export function expectedIssuance(profile: SandboxProfile, cycle: number, delay: number): Record<string, unknown>[] {
  const committee = profile.consensusCommitteeSize;
  const threshold = Math.floor((committee * 2) / 3) + 1;
  const bonus = (BigInt(committee - threshold) * BONUS_PER_SLOT_7000 * 7000n) / BigInt(committee);
  return Array.from({ length: delay + 1 }, (_, i) => ({
    cycle: cycle + i,
    baking_reward_fixed_portion: String(BAKING_REWARD_FIXED),
    baking_reward_bonus_per_block: String(bonus),
    attesting_reward_per_block: String(ATTESTING_REWARD_PER_BLOCK),
    seed_nonce_revelation_tip: String(SEED_NONCE_TIP),
    vdf_revelation_tip: String(VDF_TIP),
    dal_attesting_reward_per_shard: '0',
  }));
}
