import { asArray, asBigInt, asBoolean, asInt, asRecords, asString, isRecord } from '../model/jsonRead';
import type { Micheline, RawBlock } from '../model/RawBlock';
import { silentChainLogger, type ChainLogger } from '../support/ChainLogger';
import {
  addressSegment,
  bigMapIdSegment,
  blockSegment,
  chainSegment,
  queryString,
  scriptExprSegment,
  type BlockId,
} from './rpcArguments';
import {
  RpcAbortedError,
  RpcArgumentError,
  RpcError,
  RpcNetworkError,
  RpcNotFoundError,
  RpcUnexpectedResponseError,
} from './RpcError';
import { RpcRequester, type RpcRequesterOptions } from './RpcRequester';
import type { RpcTransport } from './RpcTransport';
import type {
  AttestationRight,
  BakingRight,
  BallotCounts,
  BallotEntry,
  ContractScript,
  MonitorHead,
  ProposalCount,
  RightsQuery,
  RpcBlockHeader,
  RpcContract,
  VoterListing,
  VotingPeriodInfo,
} from './RpcTypes';
import { UndiciRpcTransport, type UndiciRpcTransportOptions } from './UndiciRpcTransport';

export interface TezosRpcClientOptions extends RpcRequesterOptions, UndiciRpcTransportOptions {
  /** Chain to query. Default `main`. */
  chain?: string;
}

function decimal(path: string, value: unknown, what: string): bigint {
  const parsed = asBigInt(value);
  if (parsed === undefined) throw new RpcUnexpectedResponseError(path, `${what} is not a decimal number`);
  return parsed;
}

function records(path: string, value: unknown, what: string): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new RpcUnexpectedResponseError(path, `${what} is not a list`);
  return asRecords(value);
}

function hasTooLargeMetadata(block: RawBlock): boolean {
  return asArray(block.operations).some((list) =>
    asArray(list).some(
      (group) => isRecord(group) && asArray(group.contents).some((c) => isRecord(c) && typeof c.metadata === 'string'),
    ),
  );
}

/**
 * Typed access to the octez-node RPCs the indexer uses. Lookups of things that may not exist
 * (a block above the head, a contract, a big-map key) answer `undefined` on 404; everything else
 * throws an `RpcError`. Retries and timeouts come from `RpcRequester`.
 */
export class TezosRpcClient {
  readonly transport: RpcTransport;
  readonly requester: RpcRequester;
  readonly chain: string;
  private readonly logger: ChainLogger;

  /** `target`: a node URL (served through undici) or any `RpcTransport`. */
  constructor(target: string | RpcTransport, options: TezosRpcClientOptions = {}) {
    this.chain = chainSegment(options.chain ?? 'main');
    this.transport =
      typeof target === 'string' ? new UndiciRpcTransport(target, { ...options, chain: this.chain }) : target;
    this.requester = new RpcRequester(this.transport, options);
    this.logger = options.logger ?? silentChainLogger;
  }

  /** GET any RPC path; throws `RpcNotFoundError` on 404. */
  getJson(path: string, signal?: AbortSignal): Promise<unknown> {
    return this.requester.getJson(path, signal);
  }

  /** GET a path under a block (`votes/listings`, `context/constants`…); undefined on 404 (pruned or absent). */
  async blockJson(id: BlockId, path: string, signal?: AbortSignal): Promise<unknown> {
    if (path.startsWith('/') || path.split('/').includes('..'))
      throw new RpcArgumentError(`not a path under a block: '${path}'`);
    return this.requester.getOptionalJson(`${this.blockPath(id)}/${path}`, signal);
  }

  private blockPath(id: BlockId): string {
    return `/chains/${this.chain}/blocks/${blockSegment(id)}`;
  }

  /**
   * The full block (header, metadata, operations). When the node skipped an operation receipt as
   * "too large", the block is fetched again with `metadata=always` so no receipt is lost.
   */
  async block(id: BlockId, signal?: AbortSignal): Promise<RawBlock | undefined> {
    const path = this.blockPath(id);
    const block = await this.requester.getOptionalJson(path, signal);
    if (block === undefined) return undefined;
    const checked = this.checkBlock(path, block);
    if (!hasTooLargeMetadata(checked)) return checked;
    this.logger.warn({ path }, 'block has receipts marked "too large"; fetching again with metadata=always');
    const forced = await this.requester.getJson(`${path}?metadata=always`, signal);
    return this.checkBlock(path, forced);
  }

  private checkBlock(path: string, value: unknown): RawBlock {
    if (
      !isRecord(value) ||
      typeof value.hash !== 'string' ||
      !isRecord(value.header) ||
      asInt(value.header.level) === undefined
    ) {
      throw new RpcUnexpectedResponseError(path, 'not a block');
    }
    return value as unknown as RawBlock;
  }

  async header(id: BlockId, signal?: AbortSignal): Promise<RpcBlockHeader | undefined> {
    const path = `${this.blockPath(id)}/header`;
    const header = await this.requester.getOptionalJson(path, signal);
    if (header === undefined) return undefined;
    if (
      !isRecord(header) ||
      typeof header.hash !== 'string' ||
      asInt(header.level) === undefined ||
      typeof header.predecessor !== 'string'
    ) {
      throw new RpcUnexpectedResponseError(path, 'not a block header');
    }
    return header as unknown as RpcBlockHeader;
  }

  async blockHash(id: BlockId, signal?: AbortSignal): Promise<string | undefined> {
    const path = `${this.blockPath(id)}/hash`;
    const hash = await this.requester.getOptionalJson(path, signal);
    if (hash === undefined) return undefined;
    if (typeof hash !== 'string') throw new RpcUnexpectedResponseError(path, 'hash is not a string');
    return hash;
  }

  async chainId(signal?: AbortSignal): Promise<string> {
    const path = `/chains/${this.chain}/chain_id`;
    const id = await this.requester.getJson(path, signal);
    if (typeof id !== 'string') throw new RpcUnexpectedResponseError(path, 'chain id is not a string');
    return id;
  }

  /** Level of the savepoint (lowest block the node still has receipts for); 0 if the node cannot tell. */
  async savepointLevel(signal?: AbortSignal): Promise<number> {
    const value = await this.requester.getOptionalJson(`/chains/${this.chain}/levels/savepoint`, signal);
    return (isRecord(value) ? asInt(value.level) : undefined) ?? 0;
  }

  /**
   * Parametric and fixed protocol constants, as the node sends them; undefined when the node no longer keeps that
   * block's context.
   */
  async constants(id: BlockId = 'head', signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    const constants = await this.blockJson(id, 'context/constants', signal);
    if (constants === undefined) return undefined;
    if (!isRecord(constants))
      throw new RpcUnexpectedResponseError(`${this.blockPath(id)}/context/constants`, 'constants are not an object');
    return constants;
  }

  async contract(address: string, id: BlockId = 'head', signal?: AbortSignal): Promise<RpcContract | undefined> {
    const path = `${this.blockPath(id)}/context/contracts/${addressSegment(address)}`;
    const raw = await this.requester.getOptionalJson(path, signal);
    if (raw === undefined) return undefined;
    if (!isRecord(raw)) throw new RpcUnexpectedResponseError(path, 'contract is not an object');
    return {
      balance: decimal(path, raw.balance, 'balance'),
      delegate: asString(raw.delegate),
      script: isRecord(raw.script) ? { code: raw.script.code, storage: raw.script.storage } : undefined,
      counter: asBigInt(raw.counter),
      revealed: asBoolean(raw.revealed),
      raw,
    };
  }

  async contractScript(
    address: string,
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<ContractScript | undefined> {
    const path = `${this.blockPath(id)}/context/contracts/${addressSegment(address)}/script`;
    const raw = await this.requester.getOptionalJson(path, signal);
    if (raw === undefined) return undefined;
    if (!isRecord(raw) || raw.code === undefined) throw new RpcUnexpectedResponseError(path, 'script has no code');
    return { code: raw.code, storage: raw.storage };
  }

  async contractStorage(address: string, id: BlockId = 'head', signal?: AbortSignal): Promise<Micheline | undefined> {
    return this.requester.getOptionalJson(
      `${this.blockPath(id)}/context/contracts/${addressSegment(address)}/storage`,
      signal,
    );
  }

  /** Spendable balance in mutez. */
  async contractBalance(address: string, id: BlockId = 'head', signal?: AbortSignal): Promise<bigint | undefined> {
    const path = `${this.blockPath(id)}/context/contracts/${addressSegment(address)}/balance`;
    const raw = await this.requester.getOptionalJson(path, signal);
    return raw === undefined ? undefined : decimal(path, raw, 'balance');
  }

  async contractEntrypoints(
    address: string,
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<Record<string, Micheline> | undefined> {
    const path = `${this.blockPath(id)}/context/contracts/${addressSegment(address)}/entrypoints`;
    const raw = await this.requester.getOptionalJson(path, signal);
    if (raw === undefined) return undefined;
    if (!isRecord(raw) || !isRecord(raw.entrypoints))
      throw new RpcUnexpectedResponseError(path, 'no entrypoints object');
    return raw.entrypoints;
  }

  /** The value under a key hash (`expr…`), or undefined when the key is absent. */
  async bigMapValue(
    bigMapId: number | string,
    keyHash: string,
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<Micheline | undefined> {
    return this.requester.getOptionalJson(
      `${this.blockPath(id)}/context/big_maps/${bigMapIdSegment(bigMapId)}/${scriptExprSegment(keyHash)}`,
      signal,
    );
  }

  /** A page of values of a big map (`offset`/`length`); undefined when the big map does not exist. */
  async bigMapValues(
    bigMapId: number | string,
    page: { offset?: number; length?: number } = {},
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<Micheline[] | undefined> {
    const path = `${this.blockPath(id)}/context/big_maps/${bigMapIdSegment(bigMapId)}${queryString(page)}`;
    const raw = await this.requester.getOptionalJson(path, signal);
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw)) throw new RpcUnexpectedResponseError(path, 'big map values are not a list');
    return raw;
  }

  async bakingRights(query: RightsQuery, id: BlockId = 'head', signal?: AbortSignal): Promise<BakingRight[]> {
    const params = queryString({
      level: query.level,
      cycle: query.cycle,
      delegate: query.delegate === undefined ? undefined : addressSegment(query.delegate),
      max_round: query.maxRound,
      all: query.all,
    });
    const path = `${this.blockPath(id)}/helpers/baking_rights${params}`;
    return records(path, await this.requester.getJson(path, signal), 'baking rights').map((r) => ({
      level: asInt(r.level) ?? 0,
      delegate: asString(r.delegate) ?? '',
      round: asInt(r.round) ?? asInt(r.priority) ?? 0,
      estimatedTime: asString(r.estimated_time),
      consensusKey: asString(r.consensus_key),
    }));
  }

  /** Attestation rights (`attestation_rights`, falling back to `endorsing_rights` on older nodes). */
  async attestationRights(query: RightsQuery, id: BlockId = 'head', signal?: AbortSignal): Promise<AttestationRight[]> {
    const params = queryString({
      level: query.level,
      cycle: query.cycle,
      delegate: query.delegate === undefined ? undefined : addressSegment(query.delegate),
    });
    const base = `${this.blockPath(id)}/helpers`;
    let path = `${base}/attestation_rights${params}`;
    let raw: unknown;
    try {
      raw = await this.requester.getJson(path, signal);
    } catch (err) {
      if (!(err instanceof RpcNotFoundError)) throw err;
      path = `${base}/endorsing_rights${params}`;
      raw = await this.requester.getJson(path, signal);
    }
    const out: AttestationRight[] = [];
    for (const entry of records(path, raw, 'attestation rights')) {
      const level = asInt(entry.level) ?? 0;
      const estimatedTime = asString(entry.estimated_time);
      if (Array.isArray(entry.delegates)) {
        for (const d of asRecords(entry.delegates)) {
          out.push({
            level,
            delegate: asString(d.delegate) ?? '',
            firstSlot: asInt(d.first_slot),
            // Ithaca–Oxford `endorsing_power`, Paris–Seoul `attestation_power`, Tallinn+ `attesting_power`.
            power: asInt(d.attesting_power) ?? asInt(d.attestation_power) ?? asInt(d.endorsing_power) ?? 0,
            consensusKey: asString(d.consensus_key),
            estimatedTime,
          });
        }
      } else {
        const slots = asArray(entry.slots).filter((s): s is number => Number.isSafeInteger(s));
        out.push({ level, delegate: asString(entry.delegate) ?? '', slots, power: slots.length, estimatedTime });
      }
    }
    return out;
  }

  /** Delegate addresses (`active`/`inactive` filters as in the RPC). */
  async delegates(
    filter: { active?: boolean; inactive?: boolean } = {},
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<string[]> {
    const path = `${this.blockPath(id)}/context/delegates${queryString(filter)}`;
    const raw = await this.requester.getJson(path, signal);
    if (!Array.isArray(raw)) throw new RpcUnexpectedResponseError(path, 'delegates are not a list');
    return raw.filter((d): d is string => typeof d === 'string');
  }

  /** The delegate object as the node sends it (its shape changed in Quebec); undefined if not a delegate. */
  async delegate(
    pkh: string,
    id: BlockId = 'head',
    signal?: AbortSignal,
  ): Promise<Record<string, unknown> | undefined> {
    const path = `${this.blockPath(id)}/context/delegates/${addressSegment(pkh)}`;
    const raw = await this.requester.getOptionalJson(path, signal);
    if (raw === undefined) return undefined;
    if (!isRecord(raw)) throw new RpcUnexpectedResponseError(path, 'delegate is not an object');
    return raw;
  }

  async votingListings(id: BlockId = 'head', signal?: AbortSignal): Promise<VoterListing[]> {
    const path = `${this.blockPath(id)}/votes/listings`;
    return records(path, await this.requester.getJson(path, signal), 'listings').map((l) => {
      const rolls = asInt(l.rolls);
      return rolls !== undefined
        ? { pkh: asString(l.pkh) ?? '', votingPower: BigInt(rolls), unit: 'rolls' as const }
        : {
            pkh: asString(l.pkh) ?? '',
            votingPower: decimal(path, l.voting_power, 'voting_power'),
            unit: 'mutez' as const,
          };
    });
  }

  async ballotList(id: BlockId = 'head', signal?: AbortSignal): Promise<BallotEntry[]> {
    const path = `${this.blockPath(id)}/votes/ballot_list`;
    return records(path, await this.requester.getJson(path, signal), 'ballot list').map((b) => ({
      pkh: asString(b.pkh) ?? '',
      ballot: asString(b.ballot) ?? '',
    }));
  }

  async ballots(id: BlockId = 'head', signal?: AbortSignal): Promise<BallotCounts> {
    const path = `${this.blockPath(id)}/votes/ballots`;
    const raw = await this.requester.getJson(path, signal);
    if (!isRecord(raw)) throw new RpcUnexpectedResponseError(path, 'ballots are not an object');
    return {
      yay: decimal(path, raw.yay, 'yay'),
      nay: decimal(path, raw.nay, 'nay'),
      pass: decimal(path, raw.pass, 'pass'),
    };
  }

  async proposals(id: BlockId = 'head', signal?: AbortSignal): Promise<ProposalCount[]> {
    const path = `${this.blockPath(id)}/votes/proposals`;
    const raw = await this.requester.getJson(path, signal);
    if (!Array.isArray(raw)) throw new RpcUnexpectedResponseError(path, 'proposals are not a list');
    return raw
      .filter((p): p is unknown[] => Array.isArray(p) && typeof p[0] === 'string')
      .map((p) => ({ proposal: p[0] as string, votingPower: decimal(path, p[1], 'proposal power') }));
  }

  async currentProposal(id: BlockId = 'head', signal?: AbortSignal): Promise<string | null> {
    const path = `${this.blockPath(id)}/votes/current_proposal`;
    const raw = await this.requester.getJson(path, signal);
    if (raw !== null && typeof raw !== 'string') throw new RpcUnexpectedResponseError(path, 'proposal is not a hash');
    return raw;
  }

  /** Current voting period; before Edo only the kind is known (`current_period_kind`). */
  async currentPeriod(id: BlockId = 'head', signal?: AbortSignal): Promise<VotingPeriodInfo> {
    const base = `${this.blockPath(id)}/votes`;
    const info = await this.requester.getOptionalJson(`${base}/current_period`, signal);
    if (isRecord(info) && isRecord(info.voting_period)) {
      return {
        kind: asString(info.voting_period.kind) ?? '',
        index: asInt(info.voting_period.index),
        startPosition: asInt(info.voting_period.start_position),
        position: asInt(info.position),
        remaining: asInt(info.remaining),
      };
    }
    const path = `${base}/current_period_kind`;
    const kind = await this.requester.getJson(path, signal);
    if (typeof kind !== 'string') throw new RpcUnexpectedResponseError(path, 'period kind is not a string');
    return { kind };
  }

  async currentQuorum(id: BlockId = 'head', signal?: AbortSignal): Promise<number> {
    const path = `${this.blockPath(id)}/votes/current_quorum`;
    const raw = asInt(await this.requester.getJson(path, signal));
    if (raw === undefined) throw new RpcUnexpectedResponseError(path, 'quorum is not an integer');
    return raw;
  }

  /** Total voting power (rolls before Jakarta, mutez after). */
  async totalVotingPower(id: BlockId = 'head', signal?: AbortSignal): Promise<bigint> {
    const path = `${this.blockPath(id)}/votes/total_voting_power`;
    return decimal(path, await this.requester.getJson(path, signal), 'total voting power');
  }

  /**
   * New heads as the node adopts them (`/monitor/heads/main`), the current head first. Ends when
   * the stream ends; chunks that are not block headers are logged and skipped. Stream failures
   * surface as `RpcError`s (no retry here: `RpcBlockSource.heads` reconnects).
   */
  async *monitorHeads(signal?: AbortSignal): AsyncIterable<MonitorHead> {
    const path = `/monitor/heads/${this.chain}`;
    // The transport always gets a signal, aborted as soon as the consumer stops reading.
    const stop = new AbortController();
    try {
      yield* this.validHeads(
        this.transport.monitorHeads(signal ? AbortSignal.any([signal, stop.signal]) : stop.signal),
      );
    } catch (err) {
      if (err instanceof RpcError) throw err;
      throw signal?.aborted ? new RpcAbortedError(path, err) : new RpcNetworkError(path, err);
    } finally {
      stop.abort();
    }
  }

  private async *validHeads(stream: AsyncIterable<unknown>): AsyncIterable<MonitorHead> {
    for await (const item of stream) {
      const head = isRecord(item) ? item : undefined;
      const level = asInt(head?.level);
      if (
        head === undefined ||
        typeof head.hash !== 'string' ||
        level === undefined ||
        typeof head.predecessor !== 'string'
      ) {
        this.logger.warn({ item }, 'monitor/heads sent something that is not a block header; skipped');
        continue;
      }
      yield {
        hash: head.hash,
        level,
        predecessor: head.predecessor,
        proto: asInt(head.proto),
        timestamp: asString(head.timestamp),
        fitness: Array.isArray(head.fitness)
          ? head.fitness.filter((f): f is string => typeof f === 'string')
          : undefined,
      };
    }
  }
}
