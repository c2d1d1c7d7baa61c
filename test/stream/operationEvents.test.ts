import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { BlockNormalizer, CLIENT_OPERATION_TYPES } from '../../framework/chain';
import type { RawBlock } from '../../framework/chain/model/RawBlock';
import { ApiError } from '../../framework/errors/ApiError';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { StreamFilter } from '../../framework/stream/StreamFilter';
import { operationData } from '../../framework/stream/StreamRecorder';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance } from '../support/TestInstance';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A real mainnet block with two operations added from its own transaction group: one of a kind newer
 * than this build, and a staking pseudo-operation (a call of `stake` on the sender itself), which
 * clients know as a transaction.
 */
function blockWithNewKinds(): Json {
  const block = readFixtureJson<Json>('tezos-rpc', 'blocks', 'mainnet', 'mainnet-11680082.json');
  const managers = block.operations[3] as Json[];
  const tx = managers.find((g) => g.contents[0].kind === 'transaction')!;
  const unknown = structuredClone(tx);
  unknown.contents[0].kind = 'teleport_tez';
  const stake = structuredClone(tx);
  stake.contents[0].destination = stake.contents[0].source;
  stake.contents[0].parameters = { entrypoint: 'stake', value: { prim: 'Unit' } };
  managers.push(unknown, stake);
  return block;
}

describe(`live stream: operation events name types as /tables/op does (${BACKEND})`, function () {
  it("each operation event's type and kind are those of its op row; op_type takes those names", async function () {
    const block = blockWithNewKinds();
    const normalized = new BlockNormalizer().normalize(structuredClone(block));
    const events = normalized.operations.map((op) => operationData(normalized, op));
    const t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    try {
      await indexBlocks(t, [block as unknown as RawBlock]);
      // Every op row of the block, the hidden types too: the rows of its operations, and implicit
      // events (rewards, the subsidy…), which are rows of the block; the subsidy is also an operation.
      const rows = async (filter: string) =>
        (await (await t.get(`/tables/op?columns=op_n,op_p,type,kind,is_event&limit=10000${filter}`)).json()) as Array<
          [number, number, string, string, boolean]
        >;
      const all = [...(await rows('')), ...(await rows('&type.in=event,unknown'))];
      const key = (opN: unknown, opP: unknown) => `${opN}/${opP}`;
      const byPosition = new Map(all.map(([opN, opP, type, kind]) => [key(opN, opP), { type, kind }]));
      for (const e of events)
        expect({ type: e.type, kind: e.kind }, key(e.op_n, e.op_p)).to.deep.equal(byPosition.get(key(e.op_n, e.op_p)));
      const streamed = new Set(events.map((e) => key(e.op_n, e.op_p)));
      expect(all.filter(([opN, opP, , , isEvent]) => !isEvent && !streamed.has(key(opN, opP)))).to.deep.equal([]);
      expect(events.filter((e) => e.type === 'unknown').map((e) => e.kind)).to.deep.equal(['teleport_tez']);
      expect(events.filter((e) => e.entrypoint === 'stake').map((e) => [e.type, e.kind])).to.deep.equal([
        ['transaction', 'transaction'],
      ]);
      expect(normalized.operations.some((op) => op.type === 'stake')).to.equal(true);
    } finally {
      await t.close();
    }
  });

  it('op_type names a type the stream sends, unknown included, and refuses our finer normalized names', function () {
    const events = new Set(['operation']);
    const parse = (opType: string) => () => StreamFilter.parse({ op_type: opType }, events, CLIENT_OPERATION_TYPES, 10);
    expect(parse('transaction,rollup_transaction,update_consensus_key,event,unknown')).not.to.throw();
    for (const finer of ['stake', 'dal_publish', 'update_companion_key'])
      expect(parse(finer)).to.throw(ApiError, `'${finer}'`);
  });
});
