import { expect } from 'chai';
import { BlockNormalizer, type BalanceUpdate, type NormalizedBlock } from '../../framework/chain';
import { classifyBlockUpdates, classifyOperationUpdates, type Move } from '../../plugins/core-chain/BalanceMoves';
import { planBlockEvents } from '../../plugins/core-chain/BlockEvents';
import type { Json } from '../chain/support/Json';
import { listFixtures, readFixtureJson } from '../support/fixtures';

const normalize = (raw: Json): NormalizedBlock => new BlockNormalizer().normalize(raw);
const block = (...path: string[]): Json => readFixtureJson<Json>('tezos-rpc', 'blocks', ...path);
const big = (v: unknown): bigint => BigInt(v as string);

/** Σ change per account and sub-balance kind, straight from the node JSON of one list. */
function rawSums(list: readonly Json[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const u of list) {
    const account =
      u.kind === 'contract'
        ? u.contract
        : u.kind === 'freezer'
          ? (u.staker?.contract ??
            u.staker?.baker_own_stake ??
            u.staker?.baker_edge ??
            u.staker?.baker ??
            u.staker?.delegate ??
            u.contract ??
            u.delegate)
          : undefined;
    if (account === undefined) continue;
    const key = `${account}/${u.kind}`;
    out.set(key, (out.get(key) ?? 0n) + big(u.change));
  }
  for (const [k, v] of out) if (v === 0n) out.delete(k);
  return out;
}

function moveSums(moves: readonly Move[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const m of moves) {
    if (m.neutral) continue;
    const key = `${m.address}/${m.kind}`;
    out.set(key, (out.get(key) ?? 0n) + m.change);
  }
  for (const [k, v] of out) if (v === 0n) out.delete(k);
  return out;
}

/** The raw lists of a block that took effect, paired with their normalized updates. */
function lists(raw: Json, b: NormalizedBlock): Array<{ raw: Json[]; updates: BalanceUpdate[]; block: boolean }> {
  const out = [{ raw: raw.metadata?.balance_updates ?? [], updates: b.balanceUpdates, block: true }];
  for (const op of b.operations) {
    if (op.opL < 0) {
      out.push({
        raw: raw.metadata.implicit_operations_results[op.opP].balance_updates ?? [],
        updates: op.resultBalanceUpdates,
        block: false,
      });
      continue;
    }
    const content = raw.operations[op.opL][op.opP].contents[op.opC];
    // Aggregated (pre)attestations carry their receipt on the first member's row.
    if (op.opI === 0 && (op.memberIndex ?? 0) === 0)
      out.push({ raw: content.metadata?.balance_updates ?? [], updates: op.balanceUpdates, block: false });
    if (!op.isSuccess) continue;
    const result =
      op.opI === 0
        ? content.metadata?.operation_result
        : content.metadata?.internal_operation_results?.[op.opI - 1]?.result;
    out.push({ raw: result?.balance_updates ?? [], updates: op.resultBalanceUpdates, block: false });
  }
  return out;
}

describe('core-chain BalanceMoves', () => {
  const files = listFixtures('tezos-rpc', 'blocks').filter((f) => {
    const raw = readFixtureJson<Json>(f);
    return typeof raw.hash === 'string' && Number.isInteger(raw.header?.level);
  });

  it('turns every list of every recorded block into moves that add up per account and sub-balance', () => {
    let checked = 0;
    for (const file of files) {
      const raw = readFixtureJson<Json>(file);
      const b = normalize(raw);
      for (const l of lists(raw, b)) {
        const classified = l.block
          ? classifyBlockUpdates(l.updates, b.consensus === 'tenderbake', b.cycle)
          : classifyOperationUpdates(l.updates);
        expect(moveSums(classified.moves), file).to.deep.equal(rawSums(l.raw));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(1000);
  });

  it('mints and burns exactly what Ithaca+ receipts name as minted and burned', () => {
    for (const file of files) {
      const raw = readFixtureJson<Json>(file);
      const b = normalize(raw);
      for (const l of lists(raw, b)) {
        if (!l.raw.some((u: Json) => u.kind === 'minted' || u.kind === 'burned')) continue;
        const { issuance } = l.block
          ? classifyBlockUpdates(l.updates, true, b.cycle)
          : classifyOperationUpdates(l.updates);
        const sum = (kind: string): bigint =>
          l.raw.filter((u: Json) => u.kind === kind).reduce((s: bigint, u: Json) => s + big(u.change), 0n);
        expect(issuance.filter((i) => i.kind === 'mint').reduce((s, i) => s + i.amount, 0n)).to.equal(-sum('minted'));
        expect(issuance.filter((i) => i.kind === 'burn').reduce((s, i) => s + i.amount, 0n)).to.equal(sum('burned'));
      }
    }
  });

  it('splits the Ithaca baker credit into the block fees and the minted reward', () => {
    const raw = block('mainnet', 'mainnet-2490368.json');
    const b = normalize(raw);
    const updates: Json[] = raw.metadata.balance_updates;
    const fees = -big(updates.find((u) => u.kind === 'accumulator')?.change);
    const reward = -big(updates.find((u) => u.category === 'baking rewards')?.change);
    const baker = raw.metadata.baker;
    const { moves } = classifyBlockUpdates(b.balanceUpdates, true, b.cycle);
    const baking = moves.filter((m) => m.cause === 'baking' && m.address === baker);
    expect(baking.filter((m) => m.isFee).map((m) => m.amountIn)).to.deep.equal([fees]);
    expect(baking.filter((m) => m.fromMint).map((m) => m.amountIn)).to.deep.equal([reward]);
  });

  it('records rewards lost for low participation or a missed nonce as neutral burned flows of the delegate', () => {
    const raw = block('mainnet', 'mainnet-2490368.json');
    const b = normalize(raw);
    const lost: Json[] = raw.metadata.balance_updates.filter((u: Json) => u.category === 'lost endorsing rewards');
    expect(lost.length).to.be.greaterThan(0);
    const neutral = classifyBlockUpdates(b.balanceUpdates, true, b.cycle).moves.filter((m) => m.neutral);
    expect(neutral.map((m) => [m.address, m.amountIn, m.amountOut, m.isBurned])).to.deep.equal(
      lost.map((u) => [u.delegate, big(u.change), big(u.change), true]),
    );
    expect(neutral.map((m) => m.cause)).to.deep.equal(
      lost.map((u) => (u.revelation && !u.participation ? 'nonce_revelation' : 'reward')),
    );
  });

  it('marks Emmy fee payments as fees on both sides and names the counterparty of a transfer', () => {
    const raw = block('legacy-pre-ithaca', 'mainnet', 'mainnet-979686.json');
    const b = normalize(raw);
    const tx = b.operations.find((o) => o.type === 'transaction' && o.resultBalanceUpdates.length === 2)!;
    const fee = classifyOperationUpdates(tx.balanceUpdates).moves;
    expect(fee.map((m) => [m.isFee, m.category])).to.deep.equal([
      [true, 'balance'],
      [true, 'fees'],
    ]);
    const transfer = classifyOperationUpdates(tx.resultBalanceUpdates).moves;
    expect(transfer.map((m) => m.counterparty)).to.deep.equal([tx.receiver, tx.sender]);
    expect(transfer.some((m) => m.isFee || m.isBurned)).to.equal(false);
  });

  it('burns what an Emmy result debits beyond its credits (allocation of a new account)', () => {
    const raw = block('legacy-pre-ithaca', 'mainnet', 'mainnet-1676122.json');
    const b = normalize(raw);
    const op = b.operations.find((o) => o.isSuccess && o.allocatedDestination === true)!;
    const { moves, issuance } = classifyOperationUpdates(op.resultBalanceUpdates);
    expect(issuance).to.deep.equal([{ kind: 'burn', amount: op.burned }]);
    expect(moves.filter((m) => m.isBurned).reduce((s, m) => s + m.amountOut, 0n)).to.equal(op.burned);
  });

  describe('Emmy cycle-end receipts (protocol shapes: freezer debits paid out to the contract)', () => {
    const baker = 'tz1LBEKXaxQbd5Gtzbc1ATCwc3pppu81aWGc';
    const u = (kind: string, change: bigint, extra: Partial<BalanceUpdate> = {}): BalanceUpdate =>
      ({
        kind,
        change,
        account: baker,
        isPseudotoken: false,
        ...(kind === 'contract' ? { contract: baker } : { delegate: baker }),
        ...extra,
      }) as BalanceUpdate;
    const cycle = 300;

    it('pays out unfrozen deposits, fees and rewards of an old cycle without minting', () => {
      const list = [
        u('freezer', -1000n, { category: 'deposits', cycle: cycle - 5 }),
        u('freezer', -20n, { category: 'fees', cycle: cycle - 5 }),
        u('freezer', -300n, { category: 'rewards', cycle: cycle - 5 }),
        u('contract', 1320n),
      ];
      const { moves, issuance } = classifyBlockUpdates(list, false, cycle);
      expect(issuance).to.deep.equal([]);
      expect(moves.map((m) => [m.cause, m.isUnfrozen])).to.deep.equal([
        ['internal', true],
        ['internal', true],
        ['internal', true],
        ['internal', false],
      ]);
      const plan = planBlockEvents(moves, 10, baker, 0n);
      expect(plan.events.map((e) => [e.type, e.deposit, e.fee, e.reward])).to.deep.equal([
        ['unfreeze', 1000n, 20n, 300n],
      ]);
      expect(new Set(plan.opNs)).to.deep.equal(new Set([10]));
    });

    it('burns the rewards and fees of the previous cycle when the baker missed a seed nonce', () => {
      const list = [
        u('freezer', -300n, { category: 'rewards', cycle: cycle - 1 }),
        u('freezer', -20n, { category: 'fees', cycle: cycle - 1 }),
      ];
      const { moves, issuance } = classifyBlockUpdates(list, false, cycle);
      expect(issuance.map((i) => [i.kind, i.amount])).to.deep.equal([
        ['burn', 300n],
        ['burn', 20n],
      ]);
      expect(moves.every((m) => m.isBurned && m.cause === 'nonce_revelation')).to.equal(true);
      expect(planBlockEvents(moves, 0, baker, 0n).events.map((e) => [e.type, e.reward, e.fee, e.burned])).to.deep.equal(
        [['seed_slash', 300n, 20n, 320n]],
      );
    });

    it('mints a protocol invoice: a credit no frozen funds pay for', () => {
      const { moves, issuance } = classifyBlockUpdates([u('contract', 500n, { origin: 'migration' })], false, cycle);
      expect(issuance.map((i) => [i.kind, i.amount])).to.deep.equal([['mint', 500n]]);
      expect(moves.map((m) => [m.cause, m.fromMint])).to.deep.equal([['invoice', true]]);
    });
  });
});

describe('core-chain BlockEvents', () => {
  it('makes one bake event for an Emmy baker with its deposit, reward and the block fees', () => {
    const raw = block('legacy-pre-ithaca', 'mainnet', 'mainnet-979686.json');
    const b = normalize(raw);
    const updates: Json[] = raw.metadata.balance_updates;
    const credit = (category: string): bigint =>
      updates.filter((u) => u.kind === 'freezer' && u.category === category).reduce((s, u) => s + big(u.change), 0n);
    const { moves } = classifyBlockUpdates(b.balanceUpdates, false, b.cycle);
    const plan = planBlockEvents(moves, b.operations.length, b.baker, 123n);
    expect(plan.events.map((e) => [e.type, e.address, e.deposit, e.reward, e.fee, e.opN])).to.deep.equal([
      ['bake', raw.metadata.baker, credit('deposits'), credit('rewards'), 123n, b.operations.length],
    ]);
  });

  it('makes a deposit event per baker freezing deposits and a reward event per rewarded or penalised baker (Ithaca cycle end)', () => {
    const raw = block('mainnet', 'mainnet-2490368.json');
    const b = normalize(raw);
    const updates: Json[] = raw.metadata.balance_updates;
    const { moves } = classifyBlockUpdates(b.balanceUpdates, true, b.cycle);
    const plan = planBlockEvents(moves, b.operations.length, b.baker, 0n);
    const of = (type: string): string[] => plan.events.filter((e) => e.type === type).map((e) => e.address);
    const depositors = new Set(
      updates
        .filter((u) => u.kind === 'freezer' && u.category === 'deposits' && big(u.change) > 0n)
        .map((u) => u.delegate),
    );
    expect(new Set(of('deposit'))).to.deep.equal(depositors);
    expect(of('deposit')).to.have.length(depositors.size);
    const rewarded = new Set<string>();
    updates.forEach((u, i) => {
      if (u.category === 'endorsing rewards' && u.kind === 'minted' && updates[i + 1].kind === 'contract')
        rewarded.add(updates[i + 1].contract);
      if (u.category === 'lost endorsing rewards' && !(u.revelation && !u.participation)) rewarded.add(u.delegate);
    });
    expect(new Set(of('reward'))).to.deep.equal(rewarded);
    expect(of('bake')).to.deep.equal([raw.metadata.baker]);
    const ops = plan.events.map((e) => e.opN);
    expect(new Set(ops).size).to.equal(ops.length);
    expect(Math.min(...ops)).to.be.at.least(b.operations.length);
  });
});
