import { packDataBytes, type MichelsonData } from '@taquito/michel-codec';
import { expect } from 'chai';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { expectedFromBlock } from '../chain/support/rawBlockWalk';
import { slashingFigures } from '../chain/support/rawSlashingWalk';
import { indexSandbox } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { effectiveLists, endorsedPower, explicitBurns, mintedAndBurned } from './support/rawEffects';
import { CsvRow, lastRow, mutez, readTable, sumInt, sumMutez } from './support/tableReader';
import { decodeMicheline } from '../../framework';
import { specLabel, taquitoHash8 } from './support/oracles';

const HEAD = 300;
const DERIVED_EVENTS = new Set(['bake', 'bonus', 'reward', 'deposit', 'unfreeze', 'seed_slash', 'invoice', 'airdrop']);

/** The spec's code hash: sha256 over the binary Micheline, first 8 bytes (Taquito's encoder, not ours). */
const hash8 = taquitoHash8;

function rawBlocks(chain: SandboxChain, from = 0): Json[] {
  const out: Json[] = [];
  for (let level = from; level <= chain.headLevel; level++)
    out.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Json);
  return out;
}

async function nodeBalance(transport: SandboxRpcTransport, address: string): Promise<bigint> {
  const res = await transport.get(`/chains/main/blocks/head/context/contracts/${address}/balance`);
  expect(res.status, address).to.equal(200);
  return BigInt(JSON.parse(res.body) as string);
}

/** Every applied manager content and internal operation of the blocks, with its result. */
function applied(blocks: readonly Json[]): Array<{ op: Json; result: Json }> {
  const out: Array<{ op: Json; result: Json }> = [];
  for (const b of blocks)
    for (const g of (b.operations ?? []).flat())
      for (const c of g.contents ?? []) {
        const r = c.metadata?.operation_result;
        if (r?.status === 'applied') out.push({ op: c, result: r });
        for (const i of c.metadata?.internal_operation_results ?? [])
          if (i.result?.status === 'applied') out.push({ op: i, result: i.result });
      }
  for (const b of blocks) for (const r of b.metadata?.implicit_operations_results ?? []) out.push({ op: r, result: r });
  return out;
}

describe('core-chain: a sandbox chain indexed from genesis', function () {
  this.timeout(600_000);
  const chain = new SandboxChain({ seed: 'core-chain', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;
  let blocks: Json[];
  let accounts: CsvRow[];
  /** The statements that updated block rows after they were written, with their bound values. */
  const blockUpdates: Array<{ sql: string; bindings: unknown[] }> = [];

  before(async () => {
    chain.bakeTo(HEAD);
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    t.app.db.writer.on('query', (q: { sql: string; bindings?: unknown[] }) => {
      if (/^update "core_chain"\."block"/i.test(q.sql)) blockUpdates.push({ sql: q.sql, bindings: q.bindings ?? [] });
    });
    await indexSandbox(t, chain);
    blocks = rawBlocks(chain);
    accounts = await readTable(t, 'account', [
      'address',
      'address_type',
      'spendable_balance',
      'is_funded',
      'is_delegated',
      'is_baker',
      'baker',
      'counter',
      'pubkey',
      'is_revealed',
    ]);
  });
  after(async () => t?.close());

  it('stores every block once, linked to its parent, with solvetime and the slots that endorsed it', async () => {
    const rows = await readTable(t, 'block', [
      'hash',
      'height',
      'parent_id',
      'time',
      'solvetime',
      'n_endorsed_slots',
      'predecessor',
    ]);
    expect(rows.map((r) => r.hash)).to.deep.equal(blocks.map((b) => b.hash));
    const byHash = new Map(rows.map((r) => [r.hash, r]));
    rows.forEach((r, i) => {
      const raw = blocks[i];
      if (i === 0) {
        expect(r.parent_id).to.equal('');
        return;
      }
      expect(r.parent_id, `parent of ${r.height}`).to.equal(byHash.get(raw.header.predecessor)!.row_id);
      const seconds = (Date.parse(raw.header.timestamp) - Date.parse(blocks[i - 1].header.timestamp)) / 1000;
      expect(Number(r.solvetime)).to.equal(seconds);
      const next = blocks[i + 1];
      expect(Number(r.n_endorsed_slots), `slots of ${r.height}`).to.equal(next ? endorsedPower(next) : 0);
    });
  });

  it("writes a block's row whole when the batch holds the next block: only the row an earlier batch ended with is updated", async () => {
    const byHash = new Map(blocks.map((b) => [b.hash as string, b]));
    // Backfill batches of 100 blocks, then one per block near the head (where every block ends its batch).
    expect(blockUpdates.length)
      .to.be.greaterThan(0)
      .and.below(blocks.length / 2);
    for (const u of blockUpdates) {
      expect(u.sql).to.match(/ set n_endorsed_slots = /);
      expect(u.sql).to.not.match(/parent_id/);
      // One (hash, slots) pair: the block before the batch's first block.
      expect(u.bindings).to.have.length(2);
      expect(byHash.has(u.bindings[0] as string), String(u.bindings[0])).to.equal(true);
    }
  });

  it('holds for every account the spendable balance the node reports', async () => {
    const known = chain.book.allAddresses();
    expect(known.length).to.be.greaterThan(30);
    const byAddress = new Map(accounts.map((a) => [a.address, a]));
    for (const address of known) {
      const row = byAddress.get(address);
      const balance = await nodeBalance(transport, address);
      if (!row) {
        // An account no block ever mentioned would have no row; the sandbox funds all of its accounts.
        expect(balance, address).to.equal(0n);
        continue;
      }
      expect(mutez(row.spendable_balance), address).to.equal(balance);
    }
    for (const a of accounts.filter((x) => x.address_type !== 'smart_rollup')) {
      expect(mutez(a.spendable_balance), a.address).to.equal(await nodeBalance(transport, a.address));
    }
  });

  it('keeps counters, revealed keys and delegates as the node has them', async () => {
    // Delegations the blocks show: delegation operations and the delegate of staked deposits.
    // (Sandbox accounts delegated at genesis and never staking leave no trace in any block.)
    const shown = new Set<string>();
    const signers = new Set<string>();
    for (const b of blocks)
      for (const g of (b.operations ?? []).flat())
        for (const c of g.contents ?? []) if (c.counter !== undefined) signers.add(c.source);
    for (const { op, result } of applied(blocks)) {
      if (op.kind === 'delegation') shown.add(op.source);
      for (const u of result.balance_updates ?? [])
        if (u.category === 'deposits' && u.staker?.contract) shown.add(u.staker.contract);
    }
    expect(shown.size).to.be.greaterThan(0);
    for (const a of accounts.filter((x) => x.address.startsWith('tz'))) {
      const res = await transport.get(`/chains/main/blocks/head/context/contracts/${a.address}`);
      const node = JSON.parse(res.body) as Json;
      // The counter is known once the account signed a manager operation.
      expect(a.counter, a.address).to.equal(signers.has(a.address) ? String(node.counter) : '0');
      if (a.baker !== '' || shown.has(a.address)) expect(a.baker, a.address).to.equal(node.delegate ?? '');
      if (a.is_revealed === 'true') {
        const key = JSON.parse(
          (await transport.get(`/chains/main/blocks/head/context/contracts/${a.address}/manager_key`)).body,
        );
        expect(a.pubkey).to.equal(key);
      }
    }
  });

  it('holds for every account the staked and unstaked tez the node reports (own stake, pool shares, unstake requests)', async () => {
    const node = async (address: string, field: string) => {
      const res = await transport.get(`/chains/main/blocks/head/context/contracts/${address}/${field}`);
      // An implicit account the sandbox never funded (a failed transfer's destination) holds nothing.
      if (res.status === 404 && !known.has(address)) return 0n;
      expect(res.status, `${address}/${field}: ${res.body}`).to.equal(200);
      return BigInt(JSON.parse(res.body) as string);
    };
    const known = new Set(chain.book.allAddresses());
    const tez = (v: unknown) => BigInt(Math.round(Number(v) * 1e6));
    const seen = { bakers: 0, stakers: 0, unstaking: 0 };
    for (const a of accounts.filter((x) => x.address.startsWith('tz'))) {
      const object = (await (await t.get(`/explorer/account/${a.address}`)).json()) as Json;
      const [staked, unstaked] = [
        await node(a.address, 'staked_balance'),
        await node(a.address, 'unstaked_frozen_balance'),
      ];
      expect(tez(object.staked_balance), `${a.address} staked`).to.equal(staked);
      expect(tez(object.unstaked_balance), `${a.address} unstaked`).to.equal(unstaked);
      expect(object.is_staked, a.address).to.equal(staked > 0n);
      if (staked > 0n) seen[a.is_baker === 'true' ? 'bakers' : 'stakers']++;
      if (unstaked > 0n) seen.unstaking++;
    }
    // The chain has each case the columns are about.
    expect(seen.bakers).to.be.greaterThan(0);
    expect(seen.stakers).to.be.greaterThan(0);
    expect(seen.unstaking).to.be.greaterThan(0);
    // The table leaves an external staker's amount null (it moves with the pool) and has its pseudotokens.
    const rows = await readTable(t, 'account', ['address', 'is_baker', 'staked_balance', 'stake_shares']);
    for (const r of rows.filter((x) => x.is_baker !== 'true' && x.stake_shares !== '0'))
      expect(r.staked_balance, r.address).to.equal('');
  });

  it('the last balance row of every account is its balance', async () => {
    const rows = await readTable(t, 'balance', ['address', 'balance', 'valid_from']);
    const last = new Map<string, CsvRow>();
    for (const r of rows) last.set(r.address, r);
    for (const a of accounts) {
      const row = last.get(a.address);
      expect(row ? mutez(row.balance) : 0n, a.address).to.equal(mutez(a.spendable_balance));
    }
  });

  it('op rows over the whole chain match the independent walk', async () => {
    const figures = ['fee', 'volume', 'reward', 'deposit', 'burned'];
    const ops = await readTable(t, 'op', ['hash', 'type', 'status', ...figures, 'is_contract', 'sender', 'receiver']);
    const rows = ops.filter((o) => !DERIVED_EVENTS.has(o.type));
    const expected: Record<string, number> = {};
    let fee = 0n;
    let volume = 0n;
    let burned = 0n;
    let calls = 0;
    for (const b of blocks.slice(1)) {
      const walk = expectedFromBlock(b);
      for (const [type, n] of Object.entries(walk.typeCounts)) {
        const label = specLabel(type);
        expected[label] = (expected[label] ?? 0) + n;
      }
      fee += walk.fee;
      volume += walk.volume;
      burned += walk.burned;
      calls += walk.contractCalls;
    }
    // Oxford+ denunciations: their figures come from the cycle-end block that slashed them.
    const slashings = slashingFigures(blocks);
    const denunciations = rows.filter((o) => o.type.startsWith('double_'));
    expect(denunciations.map((o) => o.hash).sort()).to.deep.equal([...slashings.keys()].sort());
    // The chain has slashed denunciations, some of them by the offender itself (the accuser's credit counts).
    const slashed = denunciations.filter((o) => mutez(o.volume) > 0n && mutez(o.deposit) < 0n);
    expect(slashed.filter((o) => o.sender === o.receiver).length).to.be.greaterThan(0);
    for (const o of denunciations) {
      const s = slashings.get(o.hash)!;
      const row = { volume: mutez(o.volume), fee: mutez(o.fee), reward: mutez(o.reward), deposit: mutez(o.deposit) };
      expect(row, o.hash).to.deep.equal(s);
      volume += s.volume;
    }
    const counts: Record<string, number> = {};
    for (const o of rows) counts[o.type] = (counts[o.type] ?? 0) + 1;
    expect(counts).to.deep.equal(expected);
    expect(
      sumMutez(
        rows.filter((o) => !o.type.startsWith('double_')),
        'fee',
      ),
    ).to.equal(fee);
    expect(sumMutez(rows, 'volume')).to.equal(volume);
    expect(sumMutez(rows, 'burned')).to.equal(burned);
    expect(rows.filter((o) => o.is_contract === 'true').length).to.equal(calls);
  });

  it('chain totals equal counts over the op, account and contract tables', async () => {
    const chainRow = await lastRow(t, 'chain', [
      'total_ops',
      'total_ops_failed',
      'total_transactions',
      'total_endorsements',
      'total_accounts',
      'total_contracts',
      'funded_accounts',
      'dust_accounts',
      'total_bakers',
      'total_delegators',
      'total_constants',
      'total_originations',
    ]);
    const ops = await readTable(t, 'op', ['type', 'status', 'is_event']);
    const counted = ops.filter((o) => o.is_event === 'false');
    const appliedOf = (type: string): number => counted.filter((o) => o.type === type && o.status === 'applied').length;
    expect(Number(chainRow.total_ops)).to.equal(counted.filter((o) => o.status === 'applied').length);
    expect(Number(chainRow.total_ops_failed)).to.equal(counted.filter((o) => o.status !== 'applied').length);
    expect(Number(chainRow.total_transactions)).to.equal(appliedOf('transaction'));
    expect(Number(chainRow.total_endorsements)).to.equal(appliedOf('endorsement'));
    expect(Number(chainRow.total_originations)).to.equal(appliedOf('origination'));
    expect(Number(chainRow.total_constants)).to.equal(appliedOf('register_constant'));
    expect(Number(chainRow.total_accounts)).to.equal(accounts.filter((a) => /^tz[1-4]/.test(a.address)).length);
    const contracts = await readTable(t, 'contract', ['address']);
    expect(Number(chainRow.total_contracts)).to.equal(contracts.filter((c) => c.address.startsWith('KT1')).length);
    const balance = (a: CsvRow): bigint => mutez(a.spendable_balance);
    expect(Number(chainRow.funded_accounts)).to.equal(accounts.filter((a) => balance(a) > 0n).length);
    expect(Number(chainRow.dust_accounts)).to.equal(
      accounts.filter((a) => balance(a) > 0n && balance(a) < 1_000_000n).length,
    );
    expect(Number(chainRow.total_bakers)).to.equal(accounts.filter((a) => a.is_baker === 'true').length);
    expect(Number(chainRow.total_delegators)).to.equal(
      accounts.filter((a) => a.is_delegated === 'true' && balance(a) > 0n).length,
    );
  });

  it('supply totals equal the receipts and the balances held', async () => {
    const supply = await lastRow(t, 'supply', [
      'total',
      'minted',
      'burned',
      'burned_explicit',
      'frozen',
      'frozen_deposits',
      'delegated',
      'activated',
    ]);
    let minted = 0n;
    let burned = 0n;
    let frozen = 0n;
    for (const b of blocks) {
      const m = mintedAndBurned(b);
      minted += m.minted;
      burned += m.burned + explicitBurns(b);
      for (const list of effectiveLists(b)) for (const u of list) if (u.kind === 'freezer') frozen += BigInt(u.change);
    }
    expect(mutez(supply.minted)).to.equal(minted);
    expect(mutez(supply.burned)).to.equal(burned);
    expect(mutez(supply.frozen)).to.equal(frozen);
    expect(mutez(supply.frozen_deposits)).to.equal(frozen);
    const blockRows = await readTable(t, 'block', ['minted_supply', 'burned_supply']);
    expect(sumMutez(blockRows, 'minted_supply')).to.equal(minted);
    expect(sumMutez(blockRows, 'burned_supply')).to.equal(burned);
    // Every tez minted is held spendable or frozen, unless it was burned (tez at a burn address are counted burned).
    const held = accounts.reduce((s, a) => s + mutez(a.spendable_balance), 0n);
    expect(mutez(supply.total)).to.equal(minted - burned + mutez(supply.activated));
    expect(held + frozen).to.equal(mutez(supply.total) + mutez(supply.burned_explicit));
    const delegated = accounts
      .filter((a) => a.is_delegated === 'true')
      .reduce((s, a) => s + mutez(a.spendable_balance), 0n);
    expect(mutez(supply.delegated)).to.equal(delegated);
  });

  it('balance flows of every account add up to its balance', async () => {
    const flows = await readTable(t, 'flow', ['address', 'category', 'amount_in', 'amount_out']);
    const net = new Map<string, bigint>();
    for (const f of flows.filter((x) => x.category === 'balance'))
      net.set(f.address, (net.get(f.address) ?? 0n) + mutez(f.amount_in) - mutez(f.amount_out));
    for (const a of accounts) expect(net.get(a.address) ?? 0n, a.address).to.equal(mutez(a.spendable_balance));
  });

  it("flow op=<hash> returns the group's flows: its fee flows add up to the fees in the raw block", async () => {
    // Oracle from the node's blocks: an operation group's fees (contents' `fee`), debited as is_fee flows.
    const groups = blocks.flatMap((b) =>
      (b.operations ?? [])
        .flat()
        .map((g: Json) => ({
          hash: g.hash as string,
          height: String(b.header.level),
          fee: (g.contents ?? []).reduce((s: bigint, c: Json) => s + BigInt(c.fee ?? 0), 0n),
        })),
    );
    const paying = groups.filter((g) => g.fee > 0n).slice(0, 8);
    expect(paying.length).to.be.greaterThan(0);
    for (const g of paying) {
      const flows = await readTable(t, 'flow', ['height', 'is_fee', 'amount_out'], `op=${g.hash}`);
      expect(
        flows.every((f) => f.height === g.height),
        g.hash,
      ).to.equal(true);
      expect(
        sumMutez(
          flows.filter((f) => f.is_fee === 'true'),
          'amount_out',
        ),
        g.hash,
      ).to.equal(g.fee);
    }
  });

  it('has a contract row with code hash and creator for every origination, and a constant row for every registration', async () => {
    const contracts = await readTable(t, 'contract', ['address', 'creator', 'code_hash', 'storage_size', 'call_stats']);
    const byAddress = new Map(contracts.map((c) => [c.address, c]));
    let originations = 0;
    let constants = 0;
    const registered = new Set<string>();
    const constantRows = new Map(
      (await readTable(t, 'constant', ['address', 'creator', 'value', 'storage_size'])).map((c) => [c.address, c]),
    );
    for (const { op, result } of applied(blocks)) {
      if (op.kind === 'origination') {
        for (const address of result.originated_contracts ?? []) {
          originations++;
          const row = byAddress.get(address);
          expect(row, address).to.not.equal(undefined);
          expect(row!.creator).to.equal(op.source ?? '');
          if (op.script) {
            expect(row!.code_hash, address).to.equal(hash8(op.script.code));
            expect(row!.call_stats.length % 8).to.equal(0);
          }
        }
      }
      // A constant is registered once; the sandbox sometimes repeats one, and the first registration stands.
      if (op.kind === 'register_global_constant' && !registered.has(result.global_address)) {
        registered.add(result.global_address);
        constants++;
        const row = constantRows.get(result.global_address);
        expect(row, result.global_address).to.not.equal(undefined);
        expect(row!.creator).to.equal(op.source);
        expect(row!.value).to.equal(packDataBytes(op.value as MichelsonData).bytes.slice(2));
        expect(row!.storage_size).to.equal(String(result.storage_size));
      }
    }
    expect(originations).to.be.greaterThan(5);
    expect(constants).to.be.greaterThan(0);
    expect(contracts.length).to.be.at.least(originations);
    expect(constantRows.size).to.equal(constants);
  });

  it('keeps each contract’s current storage, its hash and its calls per entrypoint', async () => {
    const contracts = await readTable(t, 'contract', ['address', 'storage', 'storage_hash', 'call_stats', 'code_hash']);
    const calls = new Map<string, number>();
    for (const { op } of applied(blocks))
      if (op.kind === 'transaction' && String(op.destination).startsWith('KT1'))
        calls.set(op.destination, (calls.get(op.destination) ?? 0) + 1);
    let called = 0;
    for (const c of contracts.filter((x) => x.address.startsWith('KT1'))) {
      // A bootstrap contract's receipt has no storage: one never called has none to compare.
      if (c.storage === '' && !calls.has(c.address)) continue;
      const node = JSON.parse(
        (await transport.get(`/chains/main/blocks/head/context/contracts/${c.address}/storage`)).body,
      );
      expect(decodeMicheline(Buffer.from(c.storage, 'hex')), c.address).to.deep.equal(node);
      expect(c.storage_hash).to.equal(hash8(node));
      const stats = Buffer.from(c.call_stats, 'hex');
      let counted = 0;
      for (let i = 0; i < stats.length; i += 4) counted += stats.readUInt32BE(i);
      // Migration originations come without code in their receipt: no entrypoints to count against.
      expect(counted, c.address).to.equal(c.code_hash === '' ? 0 : (calls.get(c.address) ?? 0));
      if (counted > 0) called++;
    }
    expect(called).to.be.greaterThan(3);
    const ops = await readTable(t, 'op', ['receiver', 'entrypoint', 'entrypoint_id', 'is_contract', 'status']);
    const ids = new Map<string, string>();
    for (const o of ops.filter((x) => x.is_contract === 'true')) {
      const key = `${o.receiver}/${o.entrypoint}`;
      expect(ids.get(key) ?? o.entrypoint_id, key).to.equal(o.entrypoint_id);
      ids.set(key, o.entrypoint_id);
    }
  });

  it('counts the block gas and fees of each block', async () => {
    const rows = await readTable(t, 'block', ['fee', 'gas_used']);
    rows.slice(1).forEach((r, i) => {
      const walk = expectedFromBlock(blocks[i + 1]);
      expect(mutez(r.fee)).to.equal(walk.fee);
      expect(BigInt(r.gas_used)).to.equal(walk.gasUsed);
    });
    expect(sumInt(rows, 'gas_used') > 0n).to.equal(true);
  });
});

describe('core-chain: a sandbox reorganisation', function () {
  this.timeout(600_000);

  it('leaves balances equal to the node, totals equal to the tables and the replaced blocks as orphans', async () => {
    const chain = new SandboxChain({ seed: 'core-chain-reorg', profile: 'tiny' });
    const transport = new SandboxRpcTransport(chain);
    // Long enough that the first run mixes catch-up batches with per-block (journaled) commits.
    chain.bakeTo(HEAD);
    const t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    try {
      await indexSandbox(t, chain);
      const replaced = chain.head.hash;
      chain.reorg(3);
      chain.bake(4);
      await indexSandbox(t, chain);
      const rows = await readTable(t, 'block', ['hash', 'is_orphan', 'parent_id', 'n_endorsed_slots']);
      expect(rows.filter((r) => r.is_orphan === 'true').map((r) => r.hash)).to.include(replaced);
      const main = rows.filter((r) => r.is_orphan === 'false');
      const raws = rawBlocks(chain);
      expect(main.map((r) => r.hash)).to.deep.equal(raws.map((b) => b.hash));
      main.slice(1).forEach((r, i) => expect(r.parent_id).to.equal(main[i].row_id));
      // The fork point's slots are its new successor's, not those of the one the reorg took back.
      main.forEach((r, i) =>
        expect(Number(r.n_endorsed_slots), `slots of ${r.hash}`).to.equal(raws[i + 1] ? endorsedPower(raws[i + 1]) : 0),
      );
      const accounts = await readTable(t, 'account', ['address', 'spendable_balance']);
      for (const a of accounts)
        expect(mutez(a.spendable_balance), a.address).to.equal(await nodeBalance(transport, a.address));
      const chainRow = await lastRow(t, 'chain', ['height', 'total_ops']);
      const ops = await readTable(t, 'op', ['status', 'is_event']);
      expect(Number(chainRow.height)).to.equal(chain.headLevel);
      expect(Number(chainRow.total_ops)).to.equal(
        ops.filter((o) => o.is_event === 'false' && o.status === 'applied').length,
      );
      const supply = await lastRow(t, 'supply', ['minted']);
      let minted = 0n;
      for (const b of rawBlocks(chain)) minted += mintedAndBurned(b).minted;
      expect(mutez(supply.minted)).to.equal(minted);
    } finally {
      await t.close();
    }
  });
});
