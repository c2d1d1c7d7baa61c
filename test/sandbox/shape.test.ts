import { expect } from 'chai';
import { SandboxChain } from '../../framework/sandbox';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { blocksOf, contentsOf, type Block, type Content } from './chainWalk';
import { errorsOf, OpenApiSchemas } from './OpenApiSchemas';
import { signatureOf, type Signature } from './ShapeSignature';

const CONTENTS = '025-PsUshuai.operation.alpha.operation_contents_and_result';

/**
 * Paths present in the real samples that the sandbox deliberately does not produce, with the reason.
 * Everything else a real operation of a shared kind has, the sandbox must have too.
 */
const DEVIATIONS: Record<string, string> = {
  // Tallinn's address registry is only filled when a contract stores an address in indexed form;
  // the sandbox's contracts never do.
  'metadata.operation_result.address_registry_diff': 'address registry not simulated',
  'metadata.operation_result.address_registry_diff[]': 'address registry not simulated',
  'metadata.operation_result.address_registry_diff[].address': 'address registry not simulated',
  'metadata.operation_result.address_registry_diff[].index': 'address registry not simulated',
};

/**
 * Real Tallinn-era operation contents: the Tallinn mainnet block, the Tallinn testnet transaction, and the
 * manager operations of the Seoul mainnet block (manager shapes did not change from Seoul to Tallinn).
 * Not used: tzgo's Tallinn `attestations_aggregate` mock, whose metadata says `consensus_power` where
 * the mainnet block and the Ushuaia schema say `total_consensus_power` (a pre-release shape).
 */
function realContents(): Content[] {
  const out: Content[] = [];
  for (const file of listFixtures('tezos-rpc', 'blocks', 'mainnet')) {
    const block = readFixtureJson<Block & { protocol: string }>(file);
    if (!block.operations?.length) continue;
    const tallinn = block.protocol.startsWith('PtTALLiN');
    const seoul = block.protocol.startsWith('PtSeouL');
    if (!tallinn && !seoul) continue;
    block.operations.forEach((pass, i) => {
      if (tallinn || i === 3) for (const op of pass) out.push(...op.contents);
    });
  }
  for (const file of listFixtures('tezos-rpc', 'operations', 'from-test-code', 'tzgo')) {
    if (!file.endsWith('tallinn-testnet-transaction.json')) continue;
    const data = readFixtureJson<unknown>(file);
    const groups = Array.isArray(data)
      ? (data as { contents: Content[] }[][]).flat()
      : [data as { contents: Content[] }];
    for (const g of groups) out.push(...g.contents);
  }
  return out;
}

function byKind(contents: Content[]): Map<string, Content[]> {
  const m = new Map<string, Content[]>();
  for (const c of contents) m.set(c.kind, [...(m.get(c.kind) ?? []), c]);
  return m;
}

function describeTypes(sig: Signature, path: string): string {
  return [...(sig.get(path) ?? [])].sort().join('|');
}

describe('sandbox block shapes', function () {
  const ushuaia = new OpenApiSchemas('ushuaia-openapi.json');
  const chain = new SandboxChain({ seed: 'shapes', profile: 'tiny' });
  chain.bakeTo(200);
  const blocks = blocksOf(chain);
  const sandbox = byKind(contentsOf(blocks));
  const real = byKind(realContents());

  it('generates the operation kinds of a current-protocol chain', function () {
    const expected = [
      'attestation',
      'attestation_with_dal',
      'attestations_aggregate',
      'preattestation',
      'preattestations_aggregate',
      'proposals',
      'ballot',
      'seed_nonce_revelation',
      'vdf_revelation',
      'double_baking_evidence',
      'double_consensus_operation_evidence',
      'drain_delegate',
      'reveal',
      'transaction',
      'origination',
      'delegation',
      'register_global_constant',
      'increase_paid_storage',
      'update_consensus_key',
      'update_companion_key',
      'smart_rollup_add_messages',
    ];
    expect([...sandbox.keys()]).to.include.members(expected);
  });

  it('every operation content validates against the Ushuaia schema of its kind (no invented field)', function () {
    let n = 0;
    for (const [kind, list] of sandbox) {
      const validate = ushuaia.contentsKind(CONTENTS, kind);
      for (const c of list) {
        n++;
        expect(validate(c), `${kind}: ${errorsOf(validate)} in ${JSON.stringify(c).slice(0, 600)}`).to.equal(true);
      }
    }
    expect(n).to.be.greaterThan(1000);
  });

  it('the check itself is sound: real Tallinn contents pass, an invented or mistyped field fails', function () {
    for (const [kind, list] of real) {
      const validate = ushuaia.contentsKind(CONTENTS, kind);
      for (const c of list) expect(validate(c), `${kind}: ${errorsOf(validate)}`).to.equal(true);
    }
    const tx = sandbox.get('transaction')![0];
    const validate = ushuaia.contentsKind(CONTENTS, 'transaction');
    expect(validate({ ...tx, invented: 1 })).to.equal(false);
    expect(validate({ ...tx, fee: 12 })).to.equal(false);
    const { counter: _omitted, ...withoutCounter } = tx;
    expect(validate(withoutCounter)).to.equal(false);
  });

  it('headers validate against the Ushuaia full_header schema', function () {
    const validate = ushuaia.component('025-PsUshuai.block_header.alpha.full_header');
    for (const b of blocks) expect(validate(b.header), `level ${b.header.level}: ${errorsOf(validate)}`).to.equal(true);
  });

  it('block balance updates and implicit results validate against the Ushuaia schemas', function () {
    const validate = ushuaia.component('025-PsUshuai.operation_metadata.alpha.balance_updates');
    // The generated spec lists only `origin: "block"` for every category (its union of origins was
    // flattened), although real blocks carry "subsidy" and "migration" too: origins are checked apart,
    // with the field of the `delayed_operation` case (the denunciation's hash, tzgo's encoding).
    const origins = new Set(['block', 'migration', 'subsidy', 'simulation', 'delayed_operation']);
    const check = (list: Record<string, unknown>[], where: string) => {
      for (const u of list)
        expect(origins.has(u.origin as string), `${where}: origin ${String(u.origin)}`).to.equal(true);
      for (const u of list) {
        const delayed = u.origin === 'delayed_operation';
        const hashed = /^o[1-9A-HJ-NP-Za-km-z]{50}$/.test(String(u.delayed_operation_hash));
        expect(delayed === hashed, `${where}: delayed hash`).to.equal(true);
      }
      const asBlock = list.map(({ delayed_operation_hash: _hash, ...u }) => ({ ...u, origin: 'block' }));
      expect(validate(asBlock), `${where}: ${errorsOf(validate)}`).to.equal(true);
    };
    const real = readFixtureJson<Block>('tezos-rpc/blocks/mainnet/mainnet-11680082.json');
    check(real.metadata.balance_updates, 'real block');
    for (const r of real.metadata.implicit_operations_results) check(r.balance_updates ?? [], 'real implicit');
    for (const b of blocks) {
      check(b.metadata.balance_updates, `level ${b.header.level}`);
      for (const r of b.metadata.implicit_operations_results)
        check(r.balance_updates ?? [], `level ${b.header.level} implicit`);
    }
  });

  it('for every kind also found in real blocks, the sandbox has the same key paths with the same value types', function () {
    const shared = [...real.keys()].filter((k) => sandbox.has(k));
    expect(shared).to.include.members([
      'attestation',
      'attestation_with_dal',
      'attestations_aggregate',
      'transaction',
      'smart_rollup_add_messages',
    ]);
    for (const kind of shared) {
      const r = signatureOf(real.get(kind)!);
      const s = signatureOf(sandbox.get(kind)!);
      for (const [path, types] of r) {
        if (DEVIATIONS[path]) continue;
        expect(s.has(path), `${kind}: sandbox never has ${path}`).to.equal(true);
        for (const t of s.get(path)!)
          expect(
            types.has(t),
            `${kind}.${path}: sandbox ${describeTypes(s, path)} vs real ${describeTypes(r, path)}`,
          ).to.equal(true);
      }
    }
  });

  it('block metadata has the real Tallinn block keys and value types', function () {
    const fixture = readFixtureJson<Block>('tezos-rpc/blocks/mainnet/mainnet-11680082.json');
    const r = signatureOf([fixture.metadata]);
    const s = signatureOf(blocks.slice(1).map((b) => b.metadata));
    const top = (sig: Signature) => [...sig.keys()].filter((p) => p && !p.includes('.') && !p.includes('['));
    expect(top(s).sort()).to.deep.equal(top(r).sort());
    for (const [path, types] of r) {
      expect(s.has(path), `metadata: sandbox never has ${path}`).to.equal(true);
      for (const t of s.get(path)!)
        if (t !== 'null')
          expect(
            types.has(t) || types.has('null'),
            `metadata.${path}: ${describeTypes(s, path)} vs ${describeTypes(r, path)}`,
          ).to.equal(true);
    }
    const header = signatureOf([fixture.header]);
    for (const path of header.keys())
      expect(signatureOf(blocks.map((b) => b.header)).has(path), `header ${path}`).to.equal(true);
  });

  it('manager results occur as applied, failed, backtracked and skipped, failures with error traces', function () {
    const statuses = new Map<string, number>();
    for (const c of contentsOf(blocks)) {
      const r = c.metadata?.operation_result;
      if (!r) continue;
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 'failed') {
        expect(r.errors).to.be.an('array').that.is.not.empty;
        for (const e of r.errors as { kind: string; id: string }[]) expect(e.id).to.match(/^proto\.025-PsUshuai\./);
      }
    }
    for (const s of ['applied', 'failed', 'backtracked', 'skipped'])
      expect(statuses.get(s) ?? 0, s).to.be.greaterThan(0);
  });

  it('big maps are allocated, updated, copied and removed; contracts emit events and ticket updates', function () {
    const text = blocks.map((b) => JSON.stringify(b)).join('\n');
    for (const action of ['alloc', 'update', 'copy', 'remove']) expect(text, action).to.include(`"action":"${action}"`);
    expect(text).to.include('"kind":"event"');
    expect(text).to.include('"ticket_updates"');
    expect(text).to.include('"ticket_receipt"');
    expect(text).to.include('"allocated_destination_contract":true');
    for (const entrypoint of [
      'stake',
      'unstake',
      'finalize_unstake',
      'xtzToToken',
      'tokenToXtz',
      'tezToTokenPayment',
      'Swap',
      'GetReward',
      'borrow',
    ])
      expect(text, entrypoint).to.include(`"entrypoint":"${entrypoint}"`);
  });

  it('voting periods rotate through a full governance round with proposals and ballots', function () {
    const kinds = new Set(
      blocks.map((b) => (b.metadata.voting_period_info as { voting_period: { kind: string } }).voting_period.kind),
    );
    expect([...kinds]).to.include.members(['proposal', 'exploration', 'cooldown', 'promotion', 'adoption']);
  });
});
