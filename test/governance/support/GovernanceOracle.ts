import { mutezToTez } from '../../../framework';
import type { Json } from '../../chain/support/Json';

/** The node of the chain walked: `GET /chains/main/blocks/{level}/{path}`, undefined when it has no answer. */
export type NodeAsk = (level: number, path: string) => Promise<unknown>;

/** A table row as `/tables/{code}.csv` sends it: every value a string, `''` for null. */
export type ExpectedRow = Record<string, string>;

export interface ExpectedTables {
  election: ExpectedRow[];
  vote: ExpectedRow[];
  proposal: ExpectedRow[];
  ballot: ExpectedRow[];
  voter: ExpectedRow[];
}

/** What the oracle needs from core-chain's tables: account row ids and op ids (height<<16 | op_n) by hash. */
export interface ChainIds {
  account(address: string): string;
  op(hash: string): string;
}

const KINDS = ['proposal', 'exploration', 'cooldown', 'promotion', 'adoption'];
const OLD_NAMES: Record<string, string> = {
  testing_vote: 'exploration',
  testing: 'cooldown',
  promotion_vote: 'promotion',
};

interface Power {
  rolls: bigint;
  stake: bigint;
}
interface Period {
  index: number;
  kind: string;
  blocks: Json[];
}
interface Tally {
  voters: number;
  rolls: bigint;
  stake: bigint;
}
const tally = (): Tally => ({ voters: 0, rolls: 0n, stake: 0n });
const add = (t: Tally, p: Power): void => {
  t.voters++;
  t.rolls += p.rolls;
  t.stake += p.stake;
};

const csvTime = (iso: string | number): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
const csvBool = (b: boolean): string => String(b);
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * A block's voting period as its metadata tells it: `voting_period_info` (Edo on) or `level` + `voting_period_kind`
 * before.
 */
export function votingPeriodOf(block: Json): { index: number; kind: string } | undefined {
  const m = block.metadata;
  const index = m?.voting_period_info?.voting_period?.index ?? m?.level?.voting_period;
  const kind = m?.voting_period_info?.voting_period?.kind ?? m?.voting_period_kind;
  if (index === undefined || kind === undefined) return undefined;
  return { index, kind: OLD_NAMES[kind] ?? kind };
}

/**
 * The governance tables a chain should produce, computed from the raw blocks and the node's answers
 * alone: periods are runs of blocks with one period index (kind from the run's first block, as the
 * last pre-Edo block of a period already names the next kind); an election is a run of periods with
 * one first period; a period succeeded when the next one is the next stage (a pre-Edo promotion: when
 * its last block switched protocols); why it failed comes from the node's listings, quorum and the
 * operations' tallies, following the protocol's rules.
 */
export async function expectedTables(blocks: readonly Json[], node: NodeAsk, ids: ChainIds): Promise<ExpectedTables> {
  const periods: Period[] = [];
  for (const block of blocks) {
    const p = votingPeriodOf(block);
    if (!p) continue;
    const last = periods[periods.length - 1];
    if (last && last.index === p.index) last.blocks.push(block);
    else periods.push({ ...p, blocks: [block] });
  }
  const out: ExpectedTables = { election: [], vote: [], proposal: [], ballot: [], voter: [] };
  let election: ExpectedRow | undefined;
  let proposals: Array<{ row: ExpectedRow; support: Tally }> = [];
  for (let i = 0; i < periods.length; i++) {
    const p = periods[i];
    const first = p.blocks[0];
    const lastBlock = p.blocks[p.blocks.length - 1];
    const level: number = first.header.level;
    const stage = KINDS.indexOf(p.kind);
    const firstPeriod = p.index - stage;
    if (!election || Number(election.voting_period) !== firstPeriod) {
      election = {
        row_id: String(out.election.length + 1),
        proposal_id: '',
        num_periods: '',
        num_proposals: '0',
        voting_period: String(firstPeriod),
        start_time: csvTime(first.header.timestamp),
        end_time: '',
        start_height: String(level),
        end_height: '',
        is_empty: csvBool(p.kind === 'proposal'),
        is_open: 'true',
        is_failed: 'false',
        no_quorum: 'false',
        no_majority: 'false',
        proposal: '',
        last_voting_period: '',
        no_proposal: 'false',
      };
      out.election.push(election);
      proposals = [];
    }
    Object.assign(election, { num_periods: String(stage + 1), last_voting_period: p.kind });

    // The node as of the period's first block.
    const constants = ((await node(level, 'context/constants')) ?? {}) as Json;
    const listings = new Map<string, Power>();
    for (const l of ((await node(level, 'votes/listings')) ?? []) as Json[]) {
      const power =
        l.rolls !== undefined
          ? { rolls: BigInt(l.rolls), stake: BigInt(l.rolls) * BigInt(constants.tokens_per_roll ?? 0) }
          : { rolls: 0n, stake: BigInt(l.voting_power) };
      listings.set(l.pkh, power);
      out.voter.push({
        row_id: String(out.voter.length + 1),
        election_id: election.row_id,
        voting_period: String(p.index),
        height: String(level),
        account_id: ids.account(l.pkh),
        rolls: String(power.rolls),
        stake: mutezToTez(power.stake),
        address: l.pkh,
      });
    }
    const eligible = [...listings.values()].reduce((s, x) => ({ rolls: s.rolls + x.rolls, stake: s.stake + x.stake }), {
      rolls: 0n,
      stake: 0n,
    });
    const inRolls = eligible.rolls > 0n;
    const measure = (t: Power): bigint => (inRolls ? t.rolls : t.stake);
    const pct = (part: bigint, whole: bigint): number => (whole === 0n ? 0 : Number((part * 10000n) / whole));
    const ballotPeriod = p.kind === 'exploration' || p.kind === 'promotion';
    const quorum =
      p.kind === 'proposal'
        ? Number(constants.min_proposal_quorum ?? 0)
        : ballotPeriod
          ? Number((await node(level, 'votes/current_quorum')) ?? 0)
          : 0;
    const ema =
      ballotPeriod && constants.quorum_max !== undefined && quorum > constants.quorum_min
        ? Math.ceil(((quorum - constants.quorum_min) * 10000) / (constants.quorum_max - constants.quorum_min))
        : 0;
    const current = (await node(level, 'votes/current_period')) as Json | undefined;
    const remaining: number | undefined =
      first.metadata?.voting_period_info?.remaining ??
      current?.remaining ??
      (constants.blocks_per_voting_period === undefined ? undefined : constants.blocks_per_voting_period - 1);
    const delay = constants.minimal_block_delay === undefined ? undefined : Number(constants.minimal_block_delay);

    const turnout = tally();
    const ballots: Record<string, Tally> = { yay: tally(), nay: tally(), pass: tally() };
    const voted = new Set<string>();
    const vote: ExpectedRow = {
      row_id: String(out.vote.length + 1),
      election_id: election.row_id,
      proposal_id: election.proposal_id,
      voting_period: String(p.index),
      voting_period_kind: p.kind,
      period_start_time: csvTime(first.header.timestamp),
      period_end_time:
        remaining === undefined || delay === undefined
          ? ''
          : csvTime(Date.parse(first.header.timestamp) + remaining * delay * 1000),
      period_start_height: String(level),
      period_end_height: remaining === undefined ? '' : String(level + remaining),
      eligible_rolls: String(eligible.rolls),
      eligible_stake: mutezToTez(eligible.stake),
      eligible_voters: String(listings.size),
      quorum_pct: String(quorum),
      quorum_rolls: String((eligible.rolls * BigInt(quorum)) / 10000n),
      quorum_stake: mutezToTez((eligible.stake * BigInt(quorum)) / 10000n),
      turnout_ema: String(ema),
      is_open: 'true',
      is_failed: 'false',
      is_draw: 'false',
      no_proposal: 'false',
      no_quorum: 'false',
      no_majority: 'false',
      proposal: election.proposal,
    };
    out.vote.push(vote);

    // The proposal voted on, from the node, or the only proposal.
    const winnerOf = async (): Promise<string | undefined> => {
      const fromNode = p.kind === 'proposal' ? undefined : await node(level, 'votes/current_proposal');
      return typeof fromNode === 'string' ? fromNode : proposals.length === 1 ? proposals[0].row.hash : undefined;
    };
    const link = (hash: string): void => {
      const winner = proposals.find((x) => x.row.hash === hash);
      if (!winner || election!.proposal_id !== '') return;
      election!.proposal_id = winner.row.row_id;
      election!.proposal = hash;
      for (const v of out.vote)
        if (v.election_id === election!.row_id) Object.assign(v, { proposal_id: winner.row.row_id, proposal: hash });
    };
    if (p.kind !== 'proposal') {
      const hash = await winnerOf();
      if (hash) link(hash);
    }

    for (const block of p.blocks)
      for (const group of block.operations[1] ?? [])
        for (const content of group.contents) {
          const baker: string = content.source;
          const power = listings.get(baker) ?? { rolls: 0n, stake: 0n };
          const ballotRow = (ballot: string, hash: string, proposalId: string): ExpectedRow => ({
            row_id: String(out.ballot.length + 1),
            election_id: election!.row_id,
            proposal_id: proposalId,
            voting_period: String(p.index),
            voting_period_kind: p.kind,
            height: String(block.header.level),
            time: csvTime(block.header.timestamp),
            source_id: ids.account(baker),
            op_id: ids.op(group.hash),
            rolls: String(power.rolls),
            stake: mutezToTez(power.stake),
            ballot,
            source: baker,
            op: group.hash,
            proposal: hash,
          });
          if (content.kind === 'proposals' && p.kind === 'proposal') {
            for (const hash of new Set<string>(content.proposals)) {
              let entry = proposals.find((x) => x.row.hash === hash);
              if (!entry) {
                const row = {
                  row_id: String(out.proposal.length + 1),
                  hash,
                  height: String(block.header.level),
                  time: csvTime(block.header.timestamp),
                  source_id: ids.account(baker),
                  op_id: ids.op(group.hash),
                  election_id: election.row_id,
                  voting_period: String(p.index),
                  rolls: '',
                  stake: '',
                  voters: '',
                  source: baker,
                  op: group.hash,
                  election_hash: `${election.row_id}:${hash}`,
                };
                entry = { row, support: tally() };
                proposals.push(entry);
                out.proposal.push(row);
                election.num_proposals = String(proposals.length);
                election.is_empty = 'false';
              }
              if (
                out.ballot.some((b) => b.voting_period === String(p.index) && b.source === baker && b.proposal === hash)
              )
                continue;
              add(entry.support, power);
              out.ballot.push(ballotRow('yay', hash, entry.row.row_id));
            }
            if (!voted.has(baker)) add(turnout, power);
            voted.add(baker);
          }
          if (content.kind === 'ballot' && ballotPeriod && !voted.has(baker)) {
            voted.add(baker);
            add(turnout, power);
            add(ballots[content.ballot], power);
            if (election.proposal_id === '') link(content.proposal);
            out.ballot.push(ballotRow(content.ballot, content.proposal, election.proposal_id));
          }
        }
    for (const x of proposals)
      Object.assign(x.row, {
        rolls: String(x.support.rolls),
        stake: mutezToTez(x.support.stake),
        voters: String(x.support.voters),
      });
    const counts = (prefix: string, t: Tally): ExpectedRow => ({
      [`${prefix}_rolls`]: String(t.rolls),
      [`${prefix}_stake`]: mutezToTez(t.stake),
      [`${prefix}_voters`]: String(t.voters),
    });
    Object.assign(
      vote,
      counts('turnout', turnout),
      counts('yay', ballots.yay),
      counts('nay', ballots.nay),
      counts('pass', ballots.pass),
      { turnout_pct: String(pct(measure(turnout), measure(eligible))) },
    );

    // Closing: at the next period's first block, if there is one.
    const next = periods[i + 1];
    if (!next) continue;
    Object.assign(vote, {
      is_open: 'false',
      period_end_height: String(lastBlock.header.level),
      period_end_time: csvTime(lastBlock.header.timestamp),
    });
    if (p.kind === 'proposal') vote.no_proposal = csvBool(proposals.length === 0);
    if (next.index === p.index + 1) {
      const migrated = next.blocks[0].protocol !== lastBlock.protocol;
      const succeeded: Record<string, boolean> = {
        proposal: next.kind === 'exploration',
        exploration: next.kind === 'cooldown',
        cooldown: true,
        promotion: next.kind === 'adoption' || (next.kind === 'proposal' && migrated),
        adoption: true,
      };
      const failed = !succeeded[p.kind];
      vote.is_failed = csvBool(failed);
      if (failed && measure(eligible) > 0n) {
        if (p.kind === 'proposal' && proposals.length > 0) {
          const supports = proposals.map((x) => measure(x.support));
          const top = supports.reduce((m, s) => (s > m ? s : m), 0n);
          vote.is_draw = csvBool(top > 0n && supports.filter((s) => s === top).length > 1);
          vote.no_quorum = csvBool(top < (measure(eligible) * BigInt(quorum)) / 10000n);
        }
        if (ballotPeriod) {
          const yay = measure(ballots.yay);
          const nay = measure(ballots.nay);
          vote.no_quorum = csvBool(pct(measure(turnout), measure(eligible)) < quorum);
          vote.no_majority = csvBool(yay < (8n * (yay + nay)) / 10n);
        }
      }
    }
    if (next.index - KINDS.indexOf(next.kind) !== firstPeriod) {
      Object.assign(election, {
        end_time: vote.period_end_time,
        end_height: vote.period_end_height,
        is_open: 'false',
        is_failed: vote.is_failed,
        no_quorum: vote.no_quorum,
        no_majority: vote.no_majority,
        no_proposal: csvBool(vote.is_failed === 'true' && p.kind === 'proposal'),
      });
    }
  }
  for (const rows of Object.values(out))
    for (const r of rows as ExpectedRow[]) for (const k of Object.keys(r)) r[k] = str(r[k]);
  return out;
}
