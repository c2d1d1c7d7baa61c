import { expect } from 'chai';
import { BlockNormalizer } from '../../framework/chain';
import { classifyBlockUpdates, classifyOperationUpdates } from '../../plugins/core-chain/BalanceMoves';
import { allocationBurn, SupplyLedger } from '../../plugins/core-chain/SupplyLedger';
import type { Json } from '../chain/support/Json';
import { readFixtureJson } from '../support/fixtures';

const block = (...path: string[]): Json => readFixtureJson<Json>('tezos-rpc', 'blocks', ...path);
const big = (v: unknown): bigint => BigInt(v as string);

describe('core-chain SupplyLedger', () => {
  it('finds the origination_size part of a storage burn (the receipt lists it as its own burn)', () => {
    const raw = block('from-test-code', 'ghostnet-93446.json');
    const originations = raw.operations[3]
      .flatMap((g: Json) => g.contents)
      .filter((c: Json) => c.kind === 'origination');
    expect(originations.length).to.be.greaterThan(1);
    for (const o of originations) {
      const result = o.metadata.operation_result;
      const burns: bigint[] = result.balance_updates
        .filter((u: Json) => u.kind === 'burned')
        .map((u: Json) => big(u.change));
      const total = burns.reduce((s, b) => s + b, 0n);
      // Storage fees first, then the origination burn.
      expect(allocationBurn(total, big(result.paid_storage_size_diff), 1)).to.equal(burns[1]);
    }
    expect(allocationBurn(1000n, 3n, 0)).to.equal(0n);
    expect(allocationBurn(1001n, 3n, 1)).to.equal(0n);
  });

  it('attributes operation burns to origination, allocation and storage', () => {
    const raw = block('from-test-code', 'ghostnet-93446.json');
    const ops = new BlockNormalizer().normalize(raw).operations.filter((o) => o.isSuccess && o.burned > 0n);
    const ledger = new SupplyLedger();
    let origination = 0n;
    let allocation = 0n;
    let total = 0n;
    for (const op of ops) {
      const allocations = op.kind === 'origination' ? op.originatedContracts.length : op.allocatedDestination ? 1 : 0;
      ledger.recordOperation(classifyOperationUpdates(op.resultBalanceUpdates).issuance, {
        type: op.type,
        isRollup: op.isRollup,
        allocations,
        storagePaid: op.storagePaid,
      });
      const part = allocationBurn(op.burned, op.storagePaid, allocations);
      if (op.kind === 'origination') origination += part;
      else allocation += part;
      total += op.burned;
    }
    ledger.finishBlock(0n, 0n);
    const row = ledger.row();
    expect(origination > 0n).to.equal(true);
    expect(row.burned).to.equal(total);
    expect(row.burned_origination).to.equal(origination);
    expect(row.burned_allocation).to.equal(allocation);
    expect(row.burned_storage).to.equal(total - origination - allocation);
    expect(row.total).to.equal(-total);
  });

  it('attributes block mints and burns by the receipt categories (Ithaca cycle end)', () => {
    const raw = block('mainnet', 'mainnet-2490368.json');
    const b = new BlockNormalizer().normalize(raw);
    const { issuance, moves } = classifyBlockUpdates(b.balanceUpdates, true, b.cycle);
    const ledger = new SupplyLedger();
    ledger.recordBlock(issuance, () => undefined);
    for (const m of moves) ledger.freeze(m);
    ledger.finishBlock(0n, 0n);
    const row = ledger.row();
    const updates: Json[] = raw.metadata.balance_updates;
    const sum = (pick: (u: Json) => boolean): bigint => updates.filter(pick).reduce((s, u) => s + big(u.change), 0n);
    expect(row.minted_baking).to.equal(
      -sum((u) => u.kind === 'minted' && (u.category === 'baking rewards' || u.category === 'baking bonuses')),
    );
    expect(row.minted_endorsing).to.equal(-sum((u) => u.kind === 'minted' && u.category === 'endorsing rewards'));
    expect(row.burned_seed_miss).to.equal(
      sum((u) => u.kind === 'burned' && u.revelation === true && u.participation !== true),
    );
    expect(row.burned_absence).to.equal(sum((u) => u.kind === 'burned' && u.participation === true));
    expect(row.minted).to.equal(-sum((u) => u.kind === 'minted'));
    expect(row.burned).to.equal(sum((u) => u.kind === 'burned'));
    expect(row.frozen_deposits).to.equal(sum((u) => u.kind === 'freezer' && u.category === 'deposits'));
    expect(row.liquid).to.equal((row.total as bigint) - (row.frozen as bigint));
  });

  it('continues from a stored row', () => {
    const ledger = new SupplyLedger();
    ledger.recordBlock([{ kind: 'mint', amount: 700n, category: 'baking rewards' }], () => undefined);
    ledger.finishBlock(50n, 20n);
    const next = SupplyLedger.fromRow(ledger.row());
    next.beginBlock();
    next.finishBlock(-10n, 5n);
    expect(next.row().minted_baking).to.equal(700n);
    expect(next.row().delegated).to.equal(40n);
    // staking = bakers' own balances (20 + 5) + delegated (40) + frozen deposits (0)
    expect(next.row().staking).to.equal(65n);
    expect(next.blockMinted).to.equal(0n);
  });
});
