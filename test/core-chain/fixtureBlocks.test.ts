import { expect } from 'chai';
import type { RawBlock } from '../../framework/chain';
import { CoreChainPlugin } from '../../plugins/core-chain/plugin';
import type { Json } from '../chain/support/Json';
import { expectedFromBlock } from '../chain/support/rawBlockWalk';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { DatabaseBaseline } from '../support/DatabaseReset';
import { indexBlocks } from '../support/IndexHarness';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { explicitBurns, mintedAndBurned, netIssuance, spendableChanges } from './support/rawEffects';
import { CsvRow, mutez, readTable, sumInt, sumMutez } from './support/tableReader';
import { specLabel } from './support/oracles';

const isFullBlock = (raw: Json): boolean => typeof raw.hash === 'string' && Number.isInteger(raw.header?.level);

// Events core-chain derives from block-level balance updates; the independent walk does not make them.
const DERIVED_EVENTS = new Set(['bake', 'bonus', 'reward', 'deposit', 'unfreeze', 'seed_slash', 'invoice', 'airdrop']);
/** The walk's per-type counts under the op table's labels. */
function tableTypeCounts(walkCounts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, n] of Object.entries(walkCounts)) {
    const label = specLabel(type);
    out[label] = (out[label] ?? 0) + n;
  }
  return out;
}

const OP_COLUMNS = [
  'type',
  'status',
  'is_success',
  'is_contract',
  'is_internal',
  'is_event',
  'fee',
  'volume',
  'burned',
  'gas_used',
  'op_n',
  'id',
  'height',
];

describe('core-chain: every recorded block indexes as a first block', function () {
  const files = listFixtures('tezos-rpc', 'blocks').filter((f) => isFullBlock(readFixtureJson<Json>(f)));

  // One instance for all blocks, back to its just-started state before each (see DatabaseBaseline).
  let t: TestInstance;
  let baseline: DatabaseBaseline;
  before(async function () {
    t = await startTestInstance({ plugins: [CoreChainPlugin], enabled: ['core-chain'] });
    baseline = await DatabaseBaseline.take(t);
  });
  after(async () => t?.close());

  it('finds the recorded blocks', () => {
    expect(files.length).to.be.greaterThan(40);
  });

  for (const file of files) {
    describe(file, function () {
      const raw = readFixtureJson<Json>(file);
      let ops: CsvRow[];
      let block: CsvRow;

      before(async function () {
        await baseline.restore(t);
        await indexBlocks(t, [raw as unknown as RawBlock]);
        ops = await readTable(t, 'op', OP_COLUMNS);
        const blocks = await readTable(t, 'block', [
          'hash',
          'height',
          'fee',
          'gas_used',
          'volume',
          'n_ops_applied',
          'n_ops_failed',
          'n_calls',
          'n_events',
          'minted_supply',
          'burned_supply',
          'n_endorsed_slots',
          'parent_id',
          'solvetime',
        ]);
        expect(blocks).to.have.length(1);
        block = blocks[0];
      });

      it('stores the block with its hash and height', () => {
        expect(block.hash).to.equal(raw.hash);
        expect(Number(block.height)).to.equal(raw.header.level);
        // No predecessor was indexed: no parent, no solvetime, nobody endorsed it yet.
        expect(block.parent_id).to.equal('');
        expect(block.solvetime).to.equal('0');
        expect(block.n_endorsed_slots).to.equal('0');
      });

      it('op rows match the per-type counts, fee, volume, burn, gas and contract calls of an independent walk', () => {
        const walk = expectedFromBlock(raw);
        const rows = ops.filter((o) => !DERIVED_EVENTS.has(o.type));
        const counts: Record<string, number> = {};
        for (const o of rows) counts[o.type] = (counts[o.type] ?? 0) + 1;
        expect(counts).to.deep.equal(tableTypeCounts(walk.typeCounts));
        expect(rows.length).to.equal(walk.rows);
        // Denunciation rows carry the offender's lost fees (negative), not a fee paid.
        expect(
          sumMutez(
            rows.filter((o) => !o.type.startsWith('double_')),
            'fee',
          ),
        ).to.equal(walk.fee);
        expect(sumMutez(rows, 'volume')).to.equal(walk.volume);
        expect(sumMutez(rows, 'burned')).to.equal(walk.burned);
        expect(sumInt(rows, 'gas_used')).to.equal(walk.gasUsed);
        expect(rows.filter((o) => o.is_contract === 'true').length).to.equal(walk.contractCalls);
      });

      it('op ids are height<<16 | op_n and unique within the block', () => {
        const ns = new Set(ops.map((o) => o.op_n));
        expect(ns.size).to.equal(ops.length);
        for (const o of ops) expect(BigInt(o.id)).to.equal((BigInt(raw.header.level) << 16n) | BigInt(o.op_n));
      });

      it('the block row adds up its operations', () => {
        const walk = expectedFromBlock(raw);
        expect(mutez(block.fee)).to.equal(walk.fee);
        expect(BigInt(block.gas_used)).to.equal(walk.gasUsed);
        const moved = ops.filter((o) => ['transaction', 'origination', 'activation'].includes(o.type));
        expect(mutez(block.volume)).to.equal(sumMutez(moved, 'volume'));
        const counted = ops.filter((o) => o.is_event === 'false');
        expect(Number(block.n_ops_applied)).to.equal(counted.filter((o) => o.status === 'applied').length);
        expect(Number(block.n_ops_failed)).to.equal(counted.filter((o) => o.status !== 'applied').length);
        expect(Number(block.n_calls)).to.equal(
          ops.filter((o) => o.is_contract === 'true' && o.is_success === 'true' && o.is_internal === 'false').length,
        );
        expect(Number(block.n_events)).to.equal(ops.filter((o) => o.is_event === 'true').length);
      });

      it('minted and burned supply equal the receipts (Ithaca+: their minted and burned entries; Emmy: net effects)', () => {
        const named = mintedAndBurned(raw);
        const { minted, burned } = named.named ? named : netIssuance(raw);
        expect(mutez(block.minted_supply)).to.equal(minted);
        expect(mutez(block.burned_supply)).to.equal(burned + explicitBurns(raw));
      });

      it('every account holds the sum of its contract balance updates, and the balance table has it', async () => {
        const expected = spendableChanges([raw]);
        const accounts = await readTable(t, 'account', ['address', 'spendable_balance', 'is_funded']);
        const byAddress = new Map(accounts.map((a) => [a.address, a]));
        for (const [address, change] of expected)
          expect(mutez(byAddress.get(address)?.spendable_balance ?? '0'), address).to.equal(change);
        for (const a of accounts) {
          expect(mutez(a.spendable_balance), a.address).to.equal(expected.get(a.address) ?? 0n);
          expect(a.is_funded).to.equal(String(mutez(a.spendable_balance) > 0n));
        }
        const balances = await readTable(t, 'balance', ['address', 'balance', 'valid_from']);
        const changed = [...expected].filter(([, c]) => c !== 0n);
        expect(balances.map((b) => [b.address, mutez(b.balance)])).to.have.deep.members(changed);
      });

      it('balance flows of each account add up to its balance change', async () => {
        const flows = await readTable(t, 'flow', ['address', 'category', 'amount_in', 'amount_out', 'op_n']);
        const net = new Map<string, bigint>();
        for (const f of flows.filter((x) => x.category === 'balance'))
          net.set(f.address, (net.get(f.address) ?? 0n) + mutez(f.amount_in) - mutez(f.amount_out));
        for (const [address, change] of spendableChanges([raw]))
          expect(net.get(address) ?? 0n, address).to.equal(change);
      });

      it('the chain row counts the operations of its only block', async () => {
        const [chain] = await readTable(t, 'chain', [
          'height',
          'total_ops',
          'total_ops_failed',
          'total_transactions',
          'total_endorsements',
        ]);
        expect(Number(chain.height)).to.equal(raw.header.level);
        expect(chain.total_ops).to.equal(block.n_ops_applied);
        expect(chain.total_ops_failed).to.equal(block.n_ops_failed);
        const applied = (type: string): number => ops.filter((o) => o.type === type && o.status === 'applied').length;
        expect(Number(chain.total_transactions)).to.equal(applied('transaction'));
        expect(Number(chain.total_endorsements)).to.equal(applied('endorsement'));
      });
    });
  }
});
