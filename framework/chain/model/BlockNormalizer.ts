import { silentChainLogger, type ChainLogger } from '../support/ChainLogger';
import { anonymousRow } from './AnonymousRows';
import { BlockFormatError } from './BlockFormatError';
import { consensusRows } from './ConsensusRows';
import {
  asArray,
  asBigInt,
  asBoolean,
  asInt,
  asNonEmptyString,
  asString,
  isRecord,
  withoutUndefined,
} from './jsonRead';
import { implicitRow, managerRows } from './ManagerRows';
import type { FeatureVote, NormalizedBlock } from './NormalizedBlock';
import type { NormalizedOperation } from './NormalizedOperation';
import type { NormalizeWarning, WarningSink } from './NormalizeWarning';
import type { RowPosition } from './operationRow';
import { OPERATION_KINDS } from './OperationType';
import { protocolEra } from './ProtocolEra';
import { RowContext } from './RowContext';

export interface BlockNormalizerOptions {
  /** Called for every warning (also collected in `NormalizedBlock.warnings`). */
  onWarning?: WarningSink;
  /** Receives one `warn` line per warning; silent by default. */
  logger?: ChainLogger;
}

/** Where a single operation group comes from, when it is normalized outside a block. */
export interface GroupContext {
  /** List (validation pass); defaults to the pass of the group's first kind. */
  opL?: number;
  opP?: number;
  /** Header of the including block, if known (used to tell the protocol era). */
  header?: Record<string, unknown>;
  protocol?: string;
  blockBaker?: string;
  /** opN of the group's first row (default 0). */
  firstOpN?: number;
}

// Pre-Edo voting period names, mapped onto the Edo+ names of the same stages.
const VOTING_PERIOD_RENAMES: Readonly<Record<string, string>> = {
  testing_vote: 'exploration',
  testing: 'cooldown',
  promotion_vote: 'promotion',
};

function featureVote(value: unknown): FeatureVote | undefined {
  return value === 'on' || value === 'off' || value === 'pass' ? value : undefined;
}

/** Tenderbake fitness `[version, level, locked_round, -pred_round-1, round]`: the block round is the last element. */
function roundFromFitness(fitness: readonly string[]): number | undefined {
  const hex = fitness[4];
  return hex !== undefined && /^[0-9a-fA-F]{1,8}$/.test(hex) ? Number.parseInt(hex, 16) | 0 : undefined;
}

/**
 * Turns node blocks of any protocol (genesis … Ushuaia) into `NormalizedBlock`s. Never throws on
 * content it does not understand: unknown kinds become generic rows and are reported as warnings.
 * Only input that is not a block at all raises `BlockFormatError`.
 */
export class BlockNormalizer {
  private readonly logger: ChainLogger;

  constructor(private readonly options: BlockNormalizerOptions = {}) {
    this.logger = options.logger ?? silentChainLogger;
  }

  normalize(raw: unknown): NormalizedBlock {
    if (!isRecord(raw) || !isRecord(raw.header) || typeof raw.hash !== 'string') {
      throw new BlockFormatError('not a block: expected an object with `hash` and `header`');
    }
    const header = raw.header;
    const level = asInt(header.level);
    if (level === undefined) throw new BlockFormatError(`block ${raw.hash} has no header.level`);
    const hash = raw.hash;
    const warnings: NormalizeWarning[] = [];
    const sink = this.sinkFor(warnings, { level, blockHash: hash });
    const meta = isRecord(raw.metadata) ? raw.metadata : undefined;
    const protocol = asString(raw.protocol) ?? asString(meta?.protocol) ?? '';
    const era = protocolEra(header, protocol);
    const baker = asString(meta?.baker);
    const ctx = new RowContext(era, baker, sink);
    if (meta === undefined && level > 0) sink({ code: 'missing_metadata', message: 'block has no metadata' });

    const levelInfo = isRecord(meta?.level_info) ? meta.level_info : isRecord(meta?.level) ? meta.level : undefined;
    const votingInfo = isRecord(meta?.voting_period_info) ? meta.voting_period_info : undefined;
    const votingPeriod = isRecord(votingInfo?.voting_period) ? votingInfo.voting_period : undefined;
    const rawPeriodKind = asString(votingPeriod?.kind) ?? asString(meta?.voting_period_kind);
    const fitness = asArray(header.fitness).filter((f): f is string => typeof f === 'string');
    const timestamp = asString(header.timestamp) ?? '';
    const time = Date.parse(timestamp);
    if (Number.isNaN(time))
      sink({ code: 'malformed_content', message: `bad block timestamp ${JSON.stringify(header.timestamp)}` });
    const escapeVote = asBoolean(header.liquidity_baking_escape_vote);
    const milligas = asBigInt(meta?.consumed_milligas);
    const gas = asBigInt(meta?.consumed_gas);
    const nextProtocol = asString(meta?.next_protocol);

    const block = withoutUndefined<NormalizedBlock>({
      hash,
      predecessor: asString(header.predecessor) ?? '',
      level,
      proto: asInt(header.proto) ?? 0,
      protocol,
      nextProtocol,
      isProtocolMigration: nextProtocol !== undefined && nextProtocol !== protocol,
      chainId: asString(raw.chain_id),
      timestamp,
      time: Number.isNaN(time) ? 0 : time,
      cycle: asInt(levelInfo?.cycle) ?? 0,
      cyclePosition: asInt(levelInfo?.cycle_position) ?? 0,
      expectedCommitment: asBoolean(levelInfo?.expected_commitment),
      consensus: era.tenderbake ? 'tenderbake' : 'emmy',
      round: era.tenderbake
        ? (roundFromFitness(fitness) ?? asInt(header.payload_round) ?? 0)
        : (asInt(header.priority) ?? 0),
      payloadRound: asInt(header.payload_round),
      fitness,
      baker,
      proposer: asString(meta?.proposer) ?? baker,
      bakerConsensusKey: asString(meta?.baker_consensus_key),
      proposerConsensusKey: asString(meta?.proposer_consensus_key),
      nonceHash: asNonEmptyString(header.seed_nonce_hash),
      powNonce: asNonEmptyString(header.proof_of_work_nonce),
      // Granada–Ithaca voted to escape (true = switch off); Jakarta+ votes on/off/pass.
      lbVote:
        featureVote(header.liquidity_baking_toggle_vote) ??
        (escapeVote === undefined ? undefined : escapeVote ? 'off' : 'on'),
      lbEma: asInt(meta?.liquidity_baking_toggle_ema) ?? asInt(meta?.liquidity_baking_escape_ema),
      aiVote: featureVote(header.adaptive_issuance_vote),
      aiEma: asInt(meta?.adaptive_issuance_vote_ema),
      votingPeriod: asInt(votingPeriod?.index) ?? asInt(levelInfo?.voting_period),
      votingPeriodRemaining: asInt(votingInfo?.remaining),
      votingPeriodKind:
        rawPeriodKind === undefined ? undefined : (VOTING_PERIOD_RENAMES[rawPeriodKind] ?? rawPeriodKind),
      consumedMilligas: milligas ?? (gas === undefined ? undefined : gas * 1000n),
      deactivated: asArray(meta?.deactivated).filter((d): d is string => typeof d === 'string'),
      balanceUpdates: ctx.balanceUpdates(meta?.balance_updates),
      operations: [],
      hasMetadata: meta !== undefined,
      warnings,
    });

    const rows: NormalizedOperation[] = [];
    asArray(raw.operations).forEach((list, opL) => {
      asArray(list).forEach((group, opP) => rows.push(...this.groupRows(group, opL, opP, ctx)));
    });
    asArray(meta?.implicit_operations_results).forEach((result, index) => {
      if (isRecord(result)) rows.push(implicitRow(result, index, ctx));
      else sink({ code: 'malformed_content', message: `implicit result ${index} is not an object` });
    });
    rows.forEach((row, opN) => (row.opN = opN));
    block.operations = rows;
    return block;
  }

  /** Normalizes one operation group (`GET …/operations/{pass}/{index}` shape) outside of a block. */
  normalizeGroup(
    group: unknown,
    context: GroupContext = {},
  ): { operations: NormalizedOperation[]; warnings: NormalizeWarning[] } {
    const warnings: NormalizeWarning[] = [];
    const sink = this.sinkFor(warnings, {});
    const protocol = context.protocol ?? (isRecord(group) ? asString(group.protocol) : undefined);
    const ctx = new RowContext(protocolEra(context.header, protocol), context.blockBaker, sink);
    const firstKind =
      isRecord(group) && Array.isArray(group.contents) && isRecord(group.contents[0])
        ? asString(group.contents[0].kind)
        : undefined;
    const opL = context.opL ?? (firstKind !== undefined ? (OPERATION_KINDS[firstKind]?.pass ?? 3) : 3);
    const operations = this.groupRows(group, opL, context.opP ?? 0, ctx);
    const first = context.firstOpN ?? 0;
    operations.forEach((row, index) => (row.opN = first + index));
    return { operations, warnings };
  }

  private groupRows(group: unknown, opL: number, opP: number, ctx: RowContext): NormalizedOperation[] {
    if (!isRecord(group) || !Array.isArray(group.contents)) {
      ctx.warn('malformed_content', `operation group ${opL}/${opP} has no contents`);
      return [];
    }
    const hash = asString(group.hash) ?? '';
    const rows: NormalizedOperation[] = [];
    group.contents.forEach((content, opC) => {
      const position: RowPosition = { opL, opP, opC, opI: 0, hash };
      if (!isRecord(content)) {
        ctx.warn('malformed_content', `content ${opC} is not an object`, { opHash: hash });
        return;
      }
      rows.push(...this.contentRows(content, position, ctx));
    });
    return rows;
  }

  private contentRows(content: Record<string, unknown>, position: RowPosition, ctx: RowContext): NormalizedOperation[] {
    const kind = asString(content.kind) ?? 'unknown';
    const info = OPERATION_KINDS[kind];
    if (info === undefined) {
      ctx.warn('unknown_kind', `unknown operation kind ${kind}`, { opHash: position.hash, kind });
      // Build unknown kinds generically: as a manager operation if it is shaped like one.
      const looksManaged = typeof content.source === 'string' && content.fee !== undefined;
      return looksManaged
        ? managerRows(content, kind, undefined, position, ctx)
        : [anonymousRow(content, kind, undefined, position, ctx)];
    }
    if (info.pass === 0) return consensusRows(content, kind, info, position, ctx);
    if (info.pass === 3) return managerRows(content, kind, info, position, ctx);
    return [anonymousRow(content, kind, info, position, ctx)];
  }

  private sinkFor(collected: NormalizeWarning[], where: Partial<NormalizeWarning>): WarningSink {
    return (warning) => {
      const full = { ...where, ...warning };
      collected.push(full);
      this.options.onWarning?.(full);
      this.logger.warn({ warning: full }, `block normalizer: ${full.message}`);
    };
  }
}
