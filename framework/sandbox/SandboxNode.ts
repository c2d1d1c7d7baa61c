import { validateAddress, ValidationResult } from '@taquito/utils';
import type { StoredBlock } from './BlockStore';
import { ContextView } from './ContextView';
import { blake2bOf } from './Hashing';
import { STAKE_CONSTANTS } from './DelegateStake';
import { protocolConstants } from './ProtocolConstants';
import { expectedIssuance } from './Rewards';
import { GENESIS_PROTOCOL, type SandboxChain } from './SandboxChain';
import { VotesView } from './VotesView';

export interface RpcResponse {
  status: number;
  body: string;
}

const json = (value: unknown): RpcResponse => ({ status: 200, body: JSON.stringify(value) });
/** Octez answers an unknown path or a missing context entry with 404 and an empty body. */
const NOT_FOUND: RpcResponse = { status: 404, body: '' };
const badRequest = (message: string): RpcResponse => ({
  status: 400,
  body: JSON.stringify([{ kind: 'permanent', id: 'rpc.bad_request', message }]),
});

const SHELL_FIELDS = [
  'level',
  'proto',
  'predecessor',
  'timestamp',
  'validation_pass',
  'operations_hash',
  'fitness',
  'context',
] as const;

/**
 * The sandbox's RPC surface: answers the GET paths an indexer uses, with the node's paths, shapes and
 * status codes. Context and helper queries answer as of the block asked (see docs/sandbox.md).
 */
export class SandboxNode {
  constructor(readonly chain: SandboxChain) {}

  handle(method: string, rawPath: string): RpcResponse {
    if (method.toUpperCase() !== 'GET') return NOT_FOUND;
    const url = new URL(rawPath, 'http://sandbox');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const q = url.searchParams;
    try {
      return this.route(parts, q);
    } catch (e) {
      if (e instanceof RangeError) return badRequest(e.message);
      throw e;
    }
  }

  /** A `/monitor/heads/main` chunk for a block: the shell header plus hex protocol data. */
  monitorHead(block: StoredBlock): Record<string, unknown> {
    const out: Record<string, unknown> = { hash: block.hash };
    for (const f of SHELL_FIELDS) out[f] = block.header[f];
    out.protocol_data = Buffer.from(blake2bOf(64, JSON.stringify(block.header))).toString('hex');
    return out;
  }

  private route(p: string[], q: URLSearchParams): RpcResponse {
    const chain = this.chain;
    if (p.length === 1 && p[0] === 'version')
      return json({
        version: { major: 25, minor: 1, build: 0, additional_info: 'release' },
        network_version: { chain_name: 'TEZOS_SANDBOX_TZIDX', distributed_db_version: 2, p2p_version: 1 },
        commit_info: { commit_hash: 'd26a8bef', commit_date: '2026-08-21 00:00:00 +0000' },
      });
    if (p.length === 1 && p[0] === 'protocols') return json([GENESIS_PROTOCOL, chain.identity.protocol]);
    if (p[0] !== 'chains' || p[1] !== 'main') return NOT_FOUND;
    if (p.length === 3 && p[2] === 'chain_id') return json(chain.identity.chainId);
    if (p.length === 3 && p[2] === 'is_bootstrapped') return json({ bootstrapped: true, sync_state: 'synced' });
    if (p.length === 3 && p[2] === 'protocols')
      return json([
        { protocol: GENESIS_PROTOCOL, proto_level: 0, activation_block: { block_hash: chain.genesisHash, level: 0 } },
        {
          protocol: chain.identity.protocol,
          proto_level: 1,
          activation_block: { block_hash: chain.genesisHash, level: 0 },
        },
      ]);
    if (p[2] !== 'blocks' || p.length < 4) return NOT_FOUND;
    const block = chain.resolve(p[3]);
    if (!block) return NOT_FOUND;
    return this.blockRoute(block, p.slice(4), q);
  }

  private blockRoute(block: StoredBlock, p: string[], q: URLSearchParams): RpcResponse {
    const chain = this.chain;
    const protocol = block.level === 0 ? GENESIS_PROTOCOL : chain.identity.protocol;
    if (p.length === 0) return { status: 200, body: chain.blockJson(block) };
    const [head, ...rest] = p;
    switch (head) {
      case 'hash':
        return rest.length ? NOT_FOUND : json(block.hash);
      case 'header':
        if (rest.length === 0)
          return json({ protocol, chain_id: chain.identity.chainId, hash: block.hash, ...block.header });
        if (rest.length === 1 && rest[0] === 'shell')
          return json(Object.fromEntries(SHELL_FIELDS.map((f) => [f, block.header[f]])));
        return NOT_FOUND;
      case 'protocols':
        return rest.length ? NOT_FOUND : json({ protocol, next_protocol: chain.identity.protocol });
      case 'metadata':
        return rest.length ? NOT_FOUND : json(this.full(block).metadata);
      case 'operations':
        return this.operations(block, rest);
      case 'operation_hashes':
        return rest.length
          ? NOT_FOUND
          : json((this.full(block).operations as { hash: string }[][]).map((pass) => pass.map((op) => op.hash)));
      case 'context':
        return block.level === 0 ? NOT_FOUND : this.contextRoute(new ContextView(chain, block), block.level, rest, q);
      case 'helpers':
        return block.level === 0 ? NOT_FOUND : this.helpers(block, rest, q);
      case 'votes':
        return block.level === 0 ? NOT_FOUND : orNotFound(new VotesView(chain, block).answer(rest));
      default:
        return NOT_FOUND;
    }
  }

  private full(block: StoredBlock): { metadata: unknown; operations: unknown[][] } {
    return JSON.parse(this.chain.blockJson(block));
  }

  private operations(block: StoredBlock, rest: string[]): RpcResponse {
    const ops = this.full(block).operations;
    if (rest.length === 0) return json(ops);
    const pass = index(rest[0]);
    if (pass === undefined || pass >= ops.length) return NOT_FOUND;
    if (rest.length === 1) return json(ops[pass]);
    const i = index(rest[1]);
    if (rest.length > 2 || i === undefined || i >= ops[pass].length) return NOT_FOUND;
    return json(ops[pass][i]);
  }

  private contextRoute(ctx: ContextView, level: number, p: string[], q: URLSearchParams): RpcResponse {
    if (p.length === 1 && p[0] === 'constants') return json(protocolConstants(this.chain.profile));
    if (p[0] === 'contracts' && p.length >= 2) {
      const id = p[1];
      if (validateAddress(id) !== ValidationResult.VALID) return badRequest(`invalid contract notation ${id}`);
      return orNotFound(ctx.contract(id, p.slice(2)));
    }
    if (p[0] === 'big_maps' && p.length === 3) {
      const id = index(p[1]);
      return id === undefined ? NOT_FOUND : orNotFound(ctx.bigMapValue(id, p[2]));
    }
    if (p[0] === 'big_maps' && p.length === 2) {
      const id = index(p[1]);
      return id === undefined
        ? NOT_FOUND
        : orNotFound(
            ctx.bigMapValues(id, index(q.get('offset') ?? '0') ?? 0, index(q.get('length') ?? '') ?? undefined),
          );
    }
    if (p.length === 2 && p[0] === 'issuance' && p[1] === 'expected_issuance')
      return json(
        expectedIssuance(this.chain.profile, this.chain.calendar.cycleOf(level), STAKE_CONSTANTS.consensusRightsDelay),
      );
    if (p[0] === 'delegates' && p.length === 1) return json(ctx.delegates());
    if (p[0] === 'delegates' && (p.length === 2 || p.length === 3)) return orNotFound(ctx.delegate(p[1], p[2]));
    return NOT_FOUND;
  }

  private helpers(block: StoredBlock, p: string[], q: URLSearchParams): RpcResponse {
    if (p.length !== 1) return NOT_FOUND;
    const ctx = new ContextView(this.chain, block);
    switch (p[0]) {
      case 'baking_power_distribution_for_current_cycle':
        return json(ctx.bakingPowerDistribution());
      case 'total_baking_power':
        return json(ctx.totalBakingPower());
      case 'baking_rights':
      case 'attestation_rights': {
        const levels = this.rightsLevels(block, q);
        ctx.checkRightsKnown(levels);
        const delegates = new Set(q.getAll('delegate'));
        return json(
          p[0] === 'baking_rights'
            ? ctx.bakingRights(levels, delegates, q.has('all'), index(q.get('max_round') ?? '64') ?? 64)
            : ctx.attestationRights(levels, delegates),
        );
      }
      default:
        return NOT_FOUND;
    }
  }

  private rightsLevels(block: StoredBlock, q: URLSearchParams): number[] {
    const cal = this.chain.calendar;
    const levels = q.getAll('level').map((l) => {
      const n = index(l);
      if (n === undefined || n < 1) throw new RangeError(`invalid level ${l}`);
      return n;
    });
    for (const c of q.getAll('cycle')) {
      const n = index(c);
      if (n === undefined) throw new RangeError(`invalid cycle ${c}`);
      for (let l = cal.firstLevelOfCycle(n); l <= cal.lastLevelOfCycle(n); l++) levels.push(l);
    }
    // Without level or cycle the node answers for the next level.
    return levels.length ? levels : [block.level + 1];
  }
}

function index(s: string): number | undefined {
  return /^\d+$/.test(s) ? Number(s) : undefined;
}

function orNotFound(value: unknown): RpcResponse {
  return value === undefined ? NOT_FOUND : json(value);
}
