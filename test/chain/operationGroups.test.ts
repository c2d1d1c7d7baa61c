import { expect } from 'chai';
import { BlockNormalizer, type NormalizeWarning } from '../../framework/chain';
import { listFixtures, readFixtureJson } from '../support/fixtures';
import { expectedFromGroups } from './support/rawBlockWalk';
import type { Json } from './support/Json';

interface LocatedGroup {
  group: Json;
  opL?: number;
  opP?: number;
  header?: Json;
}

/** The operation groups a recording holds, whatever RPC it answers (group, content, lists, trimmed block). */
function groupsOf(raw: Json): LocatedGroup[] {
  if (Array.isArray(raw)) return raw.flatMap((list: Json[], opL) => list.map((group, opP) => ({ group, opL, opP })));
  if (Array.isArray(raw.contents)) return [{ group: raw }];
  if (typeof raw.kind === 'string') return [{ group: { contents: [raw] } }];
  if (Array.isArray(raw.operations)) {
    return raw.operations.flatMap((list: Json[], opL: number) =>
      list.map((group, opP) => ({ group, opL, opP, header: raw.header })),
    );
  }
  return [];
}

const hasFullReceipts = (group: Json): boolean => group.contents.every((c: Json) => typeof c.metadata === 'object');

// Single groups (operations/) plus the block recordings without a usable header (blocks/trimmed/).
const files = [
  ...listFixtures('tezos-rpc', 'operations'),
  ...listFixtures('tezos-rpc', 'blocks', 'trimmed').filter(
    (f) => !Number.isInteger(readFixtureJson<Json>(f).header?.level),
  ),
];

describe('chain/BlockNormalizer on single operation groups', () => {
  it('finds the recorded groups', () => {
    expect(files.length).to.be.greaterThan(25);
  });

  for (const file of files) {
    const raw = readFixtureJson<Json>(file);
    for (const { group, opL, opP, header } of groupsOf(raw)) {
      it(`${file} ${group.hash ?? ''} normalizes and matches an independent walk`, () => {
        const warnings: NormalizeWarning[] = [];
        const { operations } = new BlockNormalizer({ onWarning: (w) => warnings.push(w) }).normalizeGroup(group, {
          opL,
          opP,
          header,
        });
        expect(warnings.filter((w) => w.code === 'unknown_kind')).to.deep.equal([]);
        if (hasFullReceipts(group)) {
          expect(warnings).to.deep.equal([]);
        } else {
          // Recordings whose authors stripped receipts: every such content is reported, none is dropped.
          const missing = group.contents.filter((c: Json) => typeof c.metadata !== 'object').length;
          expect(warnings.filter((w) => w.code === 'missing_metadata')).to.have.length(missing);
        }
        const expected = expectedFromGroups([group]);
        const counts: Record<string, number> = {};
        for (const op of operations) counts[op.type] = (counts[op.type] ?? 0) + 1;
        expect(counts).to.deep.equal(expected.typeCounts);
        expect(operations.reduce((s, o) => s + o.fee, 0n)).to.equal(expected.fee);
        expect(operations.reduce((s, o) => s + o.volume, 0n)).to.equal(expected.volume);
        expect(operations.reduce((s, o) => s + o.gasUsed, 0n)).to.equal(expected.gasUsed);
        expect(operations.reduce((s, o) => s + o.burned, 0n)).to.equal(expected.burned);
        expect(operations.filter((o) => o.isContract)).to.have.length(expected.contractCalls);
      });
    }
  }

  it('collects ticket updates of top-level and internal results', () => {
    const raw = readFixtureJson<Json>(
      'tezos-rpc',
      'operations',
      'bcdhub',
      'oozKKBjBK44uGCrMcT6wwPbUD62mF7ddenwXSyJKJAAiSRxq4JQ.json',
    );
    const { operations } = new BlockNormalizer().normalizeGroup(raw);
    const results = [
      raw.contents[0].metadata.operation_result,
      ...raw.contents[0].metadata.internal_operation_results.map((i: Json) => i.result),
    ];
    const rawUpdates = results.flatMap((r: Json) =>
      (r.ticket_updates ?? r.ticket_receipt ?? []).flatMap((t: Json) => t.updates),
    );
    const rows = operations.flatMap((o) => o.ticketUpdates);
    expect(rows.map((u) => u.account)).to.deep.equal(rawUpdates.map((u: Json) => u.account));
    expect(rows.map((u) => u.amount)).to.deep.equal(rawUpdates.map((u: Json) => BigInt(u.amount)));
  });

  it('emits Kathmandu events as internal event rows and lists them on the calling content', () => {
    const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'trimmed', 'kathmandunet-133163.json');
    const group = block.operations[3].find((g: Json) =>
      g.contents[0].metadata.internal_operation_results?.some((i: Json) => i.kind === 'event'),
    );
    const rawEvents = group.contents[0].metadata.internal_operation_results.filter((i: Json) => i.kind === 'event');
    const { operations } = new BlockNormalizer().normalizeGroup(group, { opL: 3, header: block.header });
    const eventRows = operations.filter((o) => o.type === 'event');
    expect(eventRows).to.have.length(rawEvents.length);
    eventRows.forEach((row, i) => {
      expect(row.isInternal).to.equal(true);
      expect(row.opI).to.equal(i + 1);
      expect(row.events[0]).to.deep.equal({
        contract: rawEvents[i].source,
        type: rawEvents[i].type,
        tag: rawEvents[i].tag,
        payload: rawEvents[i].payload,
      });
    });
    expect(operations[0].events).to.deep.equal(eventRows.map((r) => r.events[0]));
  });

  it('names offender and accuser of a Tenderbake double baking from its receipts', () => {
    const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'from-test-code', 'ghostnet-96849.json');
    const group = block.operations[2][0];
    const updates: Json[] = group.contents[0].metadata.balance_updates;
    const row = new BlockNormalizer().normalize(block).operations.find((o) => o.kind === 'double_baking_evidence');
    expect(row?.type).to.equal('double_baking');
    expect(row?.offender).to.equal(updates.find((u) => u.kind === 'freezer' && BigInt(u.change) < 0n)?.delegate);
    expect(row?.accuser).to.equal(updates.find((u) => u.kind === 'contract' && BigInt(u.change) > 0n)?.contract);
    expect(row?.data).to.deep.equal({ bh1: group.contents[0].bh1, bh2: group.contents[0].bh2 });
  });

  it('types double_consensus_operation_evidence by the denounced operation', () => {
    const lists = readFixtureJson<Json[][]>(
      'tezos-rpc',
      'operations',
      'from-test-code',
      'tzgo',
      'double_consensus_operation_evidence.json',
    );
    const group = lists.flat()[0];
    const denounced: string = group.contents[0].op1.operations.kind;
    const { operations } = new BlockNormalizer().normalizeGroup(group, { opL: 2 });
    expect(operations[0].type).to.equal(denounced.startsWith('pre') ? 'double_preendorsement' : 'double_endorsement');
  });
});
