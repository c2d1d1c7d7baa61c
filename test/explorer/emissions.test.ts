import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { Json } from '../chain/support/Json';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { getJson, Obj } from './support/api';
import { checkOperation } from './support/checkOperation';
import { expectedBlock, expectedGroup } from './support/rawOperations';

type Cells = any[]; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Contract events and ticket updates: the recorded Kathmandu block with two events, carrying as its
 * manager operations two recorded ticket groups whose own blocks were not kept whole (a Lima
 * transaction that moves tickets between contracts, a Nairobi transfer_ticket). The groups' receipts
 * are what the node wrote; only the block around them is borrowed.
 */
function ticketBlock(): Json {
  const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'trimmed', 'kathmandunet-133163.json');
  const lima = readFixtureJson<Json>('tezos-rpc', 'blocks', 'trimmed', 'limanet-ticket_updates.json');
  const nairobi = readFixtureJson<Json>(
    'tezos-rpc',
    'operations',
    'bcdhub',
    'oozKKBjBK44uGCrMcT6wwPbUD62mF7ddenwXSyJKJAAiSRxq4JQ.json',
  );
  const [endorsements, votes, anonymous, managers] = block.operations as Json[][];
  return {
    ...block,
    operations: [endorsements, votes, anonymous, [...managers, ...(lima.operations as Json[][]).flat(), nairobi]],
  };
}

describe(`explorer: contract events and ticket updates (${BACKEND})`, function () {
  this.timeout(120_000);
  const raw = ticketBlock();
  const level: number = raw.header.level;
  const groups: Json[] = (raw.operations as Json[][]).flat();
  const expected = expectedBlock(raw);
  let t: TestInstance;

  before(async function () {
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexBlocks(t, [raw as unknown as RawBlock]);
  });
  after(async () => t?.close());

  it('the block holds what the test is about: events, one with an annotated type, and ticket updates of both receipt shapes', () => {
    const events = expected.flatMap((e) => e.events ?? []);
    expect(events).to.have.length(2);
    expect(JSON.stringify(events[1].type)).to.contain('annots');
    expect(expected.filter((e) => e.ticketUpdates !== undefined).length).to.be.greaterThan(2);
  });

  it('/explorer/op/{hash} shows the events and ticket updates each receipt lists', async function () {
    for (const group of groups) {
      const objects = await getJson<Obj[]>(t, `/explorer/op/${group.hash}?prim=1`);
      const rows = expectedGroup(group, raw);
      expect(
        objects.map((o) => o.type),
        group.hash,
      ).to.deep.equal(rows.map((e) => e.type));
      objects.forEach((o, i) => checkOperation(o, rows[i], raw, level));
    }
  });

  it('both events of one contract type hash alike: annotations do not count', async function () {
    const [call] = (
      await getJson<Obj[]>(t, `/explorer/op/${groups.find((g) => JSON.stringify(g).includes('"event"'))!.hash}`)
    ).filter((o) => o.events);
    expect(call.events).to.have.length(2);
    expect(call.events[0].type_hash).to.match(/^[0-9a-f]{16}$/);
    expect(call.events[0].type_hash).to.equal(call.events[1].type_hash);
  });

  it('/tables/event and /tables/ticket_update hold one row per event and per ticket balance change', async function () {
    const events = await getJson<Cells[]>(t, '/tables/event.json?columns=op_id,contract,tag,type_hash,event_op_id');
    const emitted = expected.flatMap((e) => e.events ?? []);
    expect(events.map(([, contract, tag]) => [contract, tag])).to.deep.equal(emitted.map((e) => [e.contract, e.tag]));
    // Filed under the signed transaction, each pointing at its own internal event operation.
    const ops = await getJson<Cells[]>(
      t,
      `/tables/op.json?columns=id,type,is_internal&height=${level}&type.in=transaction,event&limit=500`,
    );
    const idOf = (type: string, internal: boolean): number[] =>
      ops.filter(([, ty, int]) => ty === type && int === (internal ? 1 : 0)).map(([id]) => id);
    const emitterIds = new Set(events.map(([opId]) => opId));
    expect([...emitterIds]).to.have.length(1);
    expect(idOf('transaction', false)).to.include([...emitterIds][0]);
    expect(events.map((e) => e[4])).to.deep.equal(idOf('event', true));

    const tickets = await getJson<Cells[]>(t, '/tables/ticket_update.json?columns=ticketer,account,amount');
    const changes = expected.flatMap((e) => e.ticketUpdates ?? []);
    expect(tickets.map(([ticketer, account, amount]) => [ticketer, account, BigInt(amount)])).to.deep.equal(
      changes.map((c) => [c.ticketer, c.account, c.amount]),
    );
    const negative = await getJson<Cells[]>(t, '/tables/ticket_update.json?amount.lt=0&columns=amount');
    expect(negative).to.have.length(changes.filter((c) => c.amount < 0n).length);
  });
});
