import type { AccountBook, Baker } from './AccountBook';
import { BalanceUpdates } from './BalanceUpdates';
import { BlockContext, type ChainIdentity } from './BlockContext';
import type { BlockStore, StoredBlock } from './BlockStore';
import { BlockStore as Store } from './BlockStore';
import type { ChainCalendar } from './ChainCalendar';
import type { ContractRegistry } from './contracts/ContractRegistry';
import { bootstrapChain } from './Genesis';
import { b58, blake2bOf, PrefixV2 } from './Hashing';
import type { Journal } from './Journal';
import { signatureFor } from './Keys';
import { buildAnonymousOperations } from './operations/AnonymousFactory';
import { buildConsensusOperations, type ConsensusInput } from './operations/ConsensusFactory';
import { buildManagerOperations } from './operations/ManagerMix';
import { buildVotingOperations } from './operations/VotingFactory';
import type { SandboxProfile } from './profiles';
import { applyDueSlashings } from './Slashing';
import { Prng } from './Prng';
import { ATTESTING_REWARD_PER_BLOCK, BAKING_REWARD_FIXED, BONUS_PER_SLOT_7000, payReward } from './Rewards';
import type { Rights } from './Rights';
import type { SandboxExtension } from './SandboxExtension';
import type { StakeSnapshots } from './StakeSnapshots';

/** The chain's long-lived parts that building a block reads and mutates. */
export interface ChainRuntime {
  readonly seed: string;
  readonly profile: SandboxProfile;
  readonly calendar: ChainCalendar;
  readonly identity: ChainIdentity;
  readonly book: AccountBook;
  readonly journal: Journal;
  readonly contracts: ContractRegistry;
  readonly extensions: readonly SandboxExtension[];
  readonly rights: Rights;
  readonly stake: StakeSnapshots;
  readonly store: BlockStore;
  readonly genesisTime: number;
  /** Baker identities as of now (a new array whenever a consensus key changes). */
  bakerKeys(): ConsensusInput['bakers'];
}

const MAX_OPERATION_LIST_LENGTH = [
  { max_size: 4194304, max_op: 2048 },
  { max_size: 32768 },
  { max_size: 135168, max_op: 132 },
  { max_size: 524288 },
];

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Builds the block at `level` on top of the stored head, in the Tallinn/Ushuaia shape: header with
 * Tenderbake fitness, the four validation passes, and metadata whose balance updates (fees, baking
 * rewards and bonus, end-of-cycle attesting rewards) and the extensions' block results (LB's subsidy)
 * are applied to the ledger as written.
 * The last block of a cycle selects the stake distribution of a later cycle's rights.
 */
export function buildBlock(rt: ChainRuntime, level: number, branchSalt: number, round: number): StoredBlock {
  const { book, profile, calendar, identity, store, rights } = rt;
  const pred = store.at(level - 1);
  if (!pred) throw new Error(`sandbox: no block at level ${level - 1}`);
  const prng = Prng.derive(rt.seed, 'block', level, branchSalt);
  const cycle = calendar.cycleOf(level);
  const seconds = Date.parse(pred.timestamp) / 1000 + calendar.secondsToNext(round);
  const timestamp = iso(seconds);
  const branch = (store.at(level - 2) ?? pred).hash;

  rt.journal.begin();
  book.history.begin(level);
  try {
    const opsPrng = prng.fork('ops');
    const genesis =
      level === 1
        ? bootstrapChain({ book, prng: opsPrng, profile, contracts: rt.contracts, extensions: rt.extensions })
        : undefined;
    // Like Octez at activation, the first cycles' rights come from the bootstrap stake.
    if (genesis) rt.stake.selectInitial(book.view());
    const baker = book.bakers[rights.bakerAt(level, round)];
    const ctx = new BlockContext(
      level,
      cycle,
      opsPrng,
      book,
      rt.journal,
      profile,
      calendar,
      identity,
      rt.contracts,
      pred.hash,
      baker.address,
      timestamp,
      rt.seed,
      rt.extensions,
    );

    const payloadHash = b58(prng.bytes(32), PrefixV2.ValueHash);
    const consensusInput: ConsensusInput | undefined =
      level >= 2 || round > 0
        ? {
            seed: rt.seed,
            level,
            branchSalt,
            identity,
            bakers: rt.bakerKeys(),
            rights,
            attestationRate: profile.attestationRate,
            attested: level >= 2 ? { payloadHash: pred.payloadHash, round: pred.round } : undefined,
            preattested: round > 0 ? { payloadHash, round: 0 } : undefined,
            branch,
          }
        : undefined;
    const consensus = consensusInput ? buildConsensusOperations(consensusInput, false) : undefined;
    trackParticipation(rt, level, consensus?.attesters ?? []);

    const voting = buildVotingOperations(ctx);
    const anonymous = buildAnonymousOperations(ctx);
    // Level 1 is the activation block: bootstrap only, no manager operation (nothing moves stake before the
    // first cycles' distribution, which is the bootstrap's).
    const managers = level === 1 ? [] : buildManagerOperations(ctx);

    // Block-level balance updates: fees to the baker, then rewards.
    const updates = genesis?.balanceUpdates ?? new BalanceUpdates(book);
    const blockUpdates = new BalanceUpdates(book);
    if (ctx.fees > 0n)
      blockUpdates.transfer(
        (b, c) => b.accumulator(c),
        (b, c) => b.contract(baker.address, c),
        ctx.fees,
      );
    const liquid = () => book.get(baker.address).balance;
    payReward(blockUpdates, 'baking rewards', baker, liquid(), BAKING_REWARD_FIXED);
    const threshold = rights.threshold;
    const power = consensus?.attestationPower ?? 0;
    if (power > threshold) {
      const bonus = (BigInt(power - threshold) * BONUS_PER_SLOT_7000 * 7000n) / BigInt(profile.consensusCommitteeSize);
      payReward(blockUpdates, 'baking bonuses', baker, liquid(), bonus);
    }
    const slashings = calendar.isCycleEnd(level) ? applyDueSlashings(book, calendar, cycle) : [];
    if (calendar.isCycleEnd(level)) payAttestingRewards(rt, blockUpdates);
    book.setBaker(baker, 'lastActiveLevel', level);

    const implicit = [
      ...(genesis?.implicitResults ?? []),
      ...rt.extensions.flatMap((e) => e.blockResults?.(ctx) ?? []),
    ];

    const levelInfo = calendar.levelInfo(level);
    const nonceHash = levelInfo.expected_commitment ? b58(prng.bytes(32), PrefixV2.CycleNonce) : null;
    if (nonceHash) book.setVar('commitments', [...book.getVar<number[]>('commitments', []), level]);
    const vote = prng.chance(0.8) ? 'pass' : 'on';
    const ema = book.getVar<number>('lbEma', 0);
    book.setVar('lbEma', vote === 'on' ? ema - Math.floor(ema / 2000) : ema + Math.floor((2_000_000_000 - ema) / 2000));

    const passes: Record<string, unknown>[][] = [voting, anonymous, managers];
    const consumed = managers.reduce((s, op) => s + consumedOf(op), 0n);
    const metadata = {
      protocol: identity.protocol,
      next_protocol: identity.protocol,
      test_chain_status: { status: 'not_running' },
      max_operations_ttl: Math.min(level, 600),
      max_operation_data_length: 32768,
      max_block_header_length: 289,
      max_operation_list_length: MAX_OPERATION_LIST_LENGTH,
      proposer: baker.address,
      baker: baker.address,
      level_info: levelInfo,
      voting_period_info: calendar.votingPeriodInfo(level),
      nonce_hash: nonceHash,
      deactivated: [],
      balance_updates: [
        ...(level === 1 ? updates.items : []),
        ...blockUpdates.items,
        ...slashings.flatMap((s) => s.items),
      ],
      liquidity_baking_toggle_ema: book.getVar<number>('lbEma', 0),
      implicit_operations_results: implicit,
      proposer_consensus_key: baker.consensusKey,
      baker_consensus_key: baker.consensusKey,
      consumed_milligas: String(consumed),
      dal_attestation: '0',
      all_bakers_attest_activation_level: null,
      attestations: consensus?.attestationPower
        ? {
            total_committee_power: String(profile.consensusCommitteeSize),
            threshold: String(threshold),
            recorded_power: String(consensus.attestationPower),
          }
        : null,
      preattestations: consensus?.preattestationPower
        ? {
            total_committee_power: String(profile.consensusCommitteeSize),
            threshold: String(threshold),
            recorded_power: String(consensus.preattestationPower),
          }
        : null,
    };

    const operationsHash = b58(
      blake2bOf(32, ...(consensus?.digests ?? []), JSON.stringify(passes.map((p) => p.map((op) => op.hash as string)))),
      PrefixV2.OperationListListHash,
    );
    const fitness = [
      '02',
      level.toString(16).padStart(8, '0'),
      round > 0 ? '00000000' : '',
      ((-pred.round - 1) >>> 0).toString(16).padStart(8, '0'),
      round.toString(16).padStart(8, '0'),
    ];
    const context = b58(
      blake2bOf(32, 'context', rt.seed, String(level), String(branchSalt), operationsHash),
      PrefixV2.ContextHash,
    );
    const hash = b58(
      blake2bOf(32, pred.hash, String(level), String(round), operationsHash, context, payloadHash),
      PrefixV2.BlockHash,
    );
    const header: Record<string, unknown> = {
      level,
      proto: 1,
      predecessor: pred.hash,
      timestamp,
      validation_pass: 4,
      operations_hash: operationsHash,
      fitness,
      context,
      payload_hash: payloadHash,
      payload_round: 0,
      proof_of_work_nonce: prng.hex(8),
    };
    if (nonceHash) header.seed_nonce_hash = nonceHash;
    header.liquidity_baking_toggle_vote = vote;
    header.signature = signatureFor(prng, baker.consensusKind === 'tz4' ? 'tz1' : baker.consensusKind);
    book.history.commit();
    if (calendar.isCycleEnd(level)) rt.stake.selectAtCycleEnd(cycle, book.view());
    rt.journal.commit();
    return {
      level,
      hash,
      predecessor: pred.hash,
      round,
      payloadHash,
      timestamp,
      header,
      consensus: consensusInput,
      body: Store.pack({ metadata, operations: passes }),
    };
  } catch (e) {
    book.history.abort();
    rt.journal.abort();
    throw e;
  }
}

function consumedOf(op: Record<string, unknown>): bigint {
  let total = 0n;
  for (const c of op.contents as {
    metadata: {
      operation_result: { consumed_milligas?: string };
      internal_operation_results?: { result: { consumed_milligas?: string } }[];
    };
  }[]) {
    total += BigInt(c.metadata.operation_result.consumed_milligas ?? '0');
    for (const i of c.metadata.internal_operation_results ?? []) total += BigInt(i.result.consumed_milligas ?? '0');
  }
  return total;
}

function trackParticipation(rt: ChainRuntime, level: number, attesters: number[]): void {
  if (level < 2) return;
  const { book } = rt;
  const attested = new Set(attesters);
  for (const m of rt.rights.committee(level - 1)) {
    const b = book.bakers[m.baker];
    book.setBaker(b, 'cycleExpectedSlots', b.cycleExpectedSlots + m.slots);
    if (attested.has(m.baker)) book.setBaker(b, 'lastActiveLevel', level);
    else book.setBaker(b, 'cycleMissedSlots', b.cycleMissedSlots + m.slots);
  }
}

/**
 * End of cycle: each baker earns attesting rewards for its expected slots if it attested at least 2/3
 * of them (`minimal_participation_ratio`), otherwise they are minted and burnt as lost rewards.
 */
function payAttestingRewards(rt: ChainRuntime, updates: BalanceUpdates): void {
  const { book, profile } = rt;
  const perCycle = ATTESTING_REWARD_PER_BLOCK * BigInt(profile.blocksPerCycle);
  const totalSlots = BigInt(profile.consensusCommitteeSize * profile.blocksPerCycle);
  for (const b of book.bakers) {
    if (b.cycleExpectedSlots > 0) {
      const reward = (perCycle * BigInt(b.cycleExpectedSlots)) / totalSlots;
      if (reward > 0n) {
        if ((b.cycleExpectedSlots - b.cycleMissedSlots) * 3 >= b.cycleExpectedSlots * 2)
          payReward(updates, 'attesting rewards', b, book.get(b.address).balance, reward);
        else
          updates.transfer(
            (u, c) => u.minted('attesting rewards', c),
            (u, c) =>
              u.burned('lost attesting rewards', c, { delegate: b.address, participation: false, revelation: false }),
            reward,
          );
      }
    }
    book.setBaker(b, 'cycleExpectedSlots', 0);
    if (b.cycleMissedSlots) book.setBaker(b, 'cycleMissedSlots', 0);
  }
}

export type { Baker };
