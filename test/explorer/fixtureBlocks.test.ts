import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import type { RawBlock } from '../../framework/chain';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import type { Json } from '../chain/support/Json';
import { expectedFromBlock } from '../chain/support/rawBlockWalk';
import { readFixtureJson } from '../support/fixtures';
import { indexBlocks } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { expectError, expectNotModified, getJson, Obj, readAllPages } from './support/api';
import { checkOperation } from './support/checkOperation';
import {
  blockCycle,
  blockRound,
  expectedBlock,
  expectedGroup,
  listedInternal,
  tezToMutezNumber,
  votingPeriodKind,
} from './support/rawOperations';

const BLOCKS = [
  'tezos-rpc/blocks/mainnet/mainnet-11680082.json', // Tallinn
  'tezos-rpc/blocks/mainnet/mainnet-11610082.json', // Seoul: attestation aggregates
  'tezos-rpc/blocks/mainnet/mainnet-2490368.json', // Ithaca's last block: Tenderbake, legacy big map diffs next to lazy ones
  'tezos-rpc/blocks/legacy-pre-ithaca/mainnet/mainnet-1064978.json', // Carthage: Emmy endorsement slots, delegations
  'tezos-rpc/blocks/trimmed/kathmandunet-133163.json', // contract events, one type annotated
  'tezos-rpc/blocks/trimmed/ithacanet-135596.json', // set_deposits_limit
];

/** The receipts' contract events (internal `event` operations), applied or not. */
const internalEvents = (raw: Json): Json[] =>
  (raw.operations as Json[][])
    .flat()
    .flatMap((g) => g.contents as Json[])
    .flatMap((c) => (c.metadata?.internal_operation_results ?? []) as Json[])
    .filter((i) => i.kind === 'event');

describe(`explorer: recorded mainnet blocks (${BACKEND})`, function () {
  this.timeout(300_000);

  for (const file of BLOCKS) {
    describe(file.split('/').pop()!, function () {
      const raw = readFixtureJson<Json>(file);
      const level: number = raw.header.level;
      const groups: Json[] = (raw.operations as Json[][]).flat();
      let t: TestInstance;

      before(async function () {
        t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
        await indexBlocks(t, [raw as unknown as RawBlock]);
      });
      after(async () => t?.close());

      it('/explorer/block/{height|hash|head} equals the header and receipts', async function () {
        const walk = expectedFromBlock(raw);
        const block = await getJson(t, `/explorer/block/${level}`);
        expect(block).to.include({
          hash: raw.hash,
          predecessor: raw.header.predecessor,
          successor: null,
          protocol: raw.protocol,
          height: level,
        });
        expect(block).to.include({
          time: raw.header.timestamp,
          cycle: blockCycle(raw),
          round: blockRound(raw),
          is_orphan: false,
        });
        expect(block.baker).to.equal(raw.metadata.baker);
        expect(block.proposer).to.equal(raw.metadata.proposer ?? raw.metadata.baker);
        expect(block.voting_period_kind).to.equal(votingPeriodKind(raw));
        expect(block.nonce).to.equal(raw.header.proof_of_work_nonce);
        // The last block of a protocol already carries the next protocol's number.
        expect(block.version).to.equal(raw.header.proto - (raw.metadata.next_protocol !== raw.protocol ? 1 : 0));
        expect(tezToMutezNumber(block.fee)).to.equal(walk.fee);
        expect(BigInt(block.gas_used)).to.equal(walk.gasUsed);
        // Implicit results (subsidy, migration) are events, not counted as operations.
        // The counters include contract events (internal operations of the receipt), which lists leave out.
        expect(block.n_ops_applied + block.n_ops_failed).to.equal(
          expectedBlock(raw).length + internalEvents(raw).length,
        );
        expect(await getJson(t, `/explorer/block/${raw.hash}`)).to.deep.equal(block);
        expect(await getJson(t, '/explorer/block/head.json')).to.deep.equal(block);
        expect((await getJson(t, `/explorer/block/${level}?meta=1`)).metadata).to.deep.equal({});
      });

      it('/explorer/op/{hash} of every operation group equals the node JSON, internal operations included', async function () {
        for (const group of groups) {
          const expected = expectedGroup(group, raw);
          const objects = await getJson<Obj[]>(t, `/explorer/op/${group.hash}?prim=1`);
          expect(
            objects.map((o) => o.type),
            group.hash,
          ).to.deep.equal(expected.map((e) => e.type));
          // One block is indexed: it is the head.
          objects.forEach((o, i) => checkOperation(o, expected[i], raw, level));
          const internal = (group.contents as Json[]).reduce((n, c) => n + listedInternal(c.metadata).length, 0);
          expect(objects.filter((o) => o.is_internal).length, group.hash).to.equal(internal);
          expect(
            objects.map((o) => o.op_n),
            group.hash,
          ).to.deep.equal([...objects.map((o) => o.op_n)].sort((a, b) => a - b));
        }
      });

      it('/explorer/op/{hash} asked for every group at once (the lookups run together) answers as asked one at a time', async function () {
        const stored = groups[0].hash as string;
        const corrupt = `${stored.slice(0, 20)}${stored[20] === '1' ? '2' : '1'}${stored.slice(21)}`;
        const paths = [
          ...groups.map((g) => `/explorer/op/${g.hash}`),
          `/explorer/op/${b58Encode(new Uint8Array(32), PrefixV2.OperationHash)}`,
          `/explorer/op/${corrupt}`,
          `/explorer/op/${stored}?prim=1`,
        ];
        const answer = async (path: string) => {
          const res = await t.get(path);
          // Errors differ only by their request id.
          return { path, status: res.status, body: (await res.text()).replace(/"request_id": "[^"]*"/, '') };
        };
        // Statements and keys of the op table's batched lookups so far (/metrics).
        const lookups = async () => {
          const text = await (await t.get('/metrics')).text();
          const figure = (name: string) =>
            Number(
              new RegExp(`^tzidx_api_batched_lookup_keys_${name}\\{table="op"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
            );
          return { statements: figure('count'), keys: figure('sum') };
        };
        const alone = [];
        const before = await lookups();
        for (const path of paths) alone.push(await answer(path));
        const one = await lookups();
        expect(alone.slice(-3).map((a) => a.status)).to.deep.equal([404, 400, 200]);
        expect({ statements: one.statements - before.statements, keys: one.keys - before.keys }).to.deep.equal({
          statements: paths.length,
          keys: paths.length,
        });
        // Twice: the first round opens the connections, the second sends on them at once.
        for (let round = 0; round < 2; round++) expect(await Promise.all(paths.map(answer))).to.deep.equal(alone);
        // Fewer statements than requests: lookups were made together.
        expect((await lookups()).statements - one.statements)
          .to.be.above(0)
          .and.below(2 * paths.length);
      });

      it('/explorer/op/{id} answers the one row with that id', async function () {
        const managers = groups.filter((g) => g.contents.some((c: Json) => c.fee !== undefined));
        for (const group of [groups[0], ...managers.slice(0, 10)]) {
          for (const o of await getJson<Obj[]>(t, `/explorer/op/${group.hash}`)) {
            expect(o.id).to.equal(level * 2 ** 16 + o.op_n);
            expect(await getJson<Obj[]>(t, `/explorer/op/${o.id}`)).to.deep.equal([o]);
            expect(await getJson<Obj[]>(t, `/explorer/op/${o.id}.json?meta=1`)).to.deep.equal([{ ...o, metadata: {} }]);
          }
        }
      });

      it('storage=1 adds the big map changes of each call as the receipt lists them', async function () {
        let calls = 0;
        for (const group of groups.filter((g) => g.contents.some((c: Json) => c.kind === 'transaction'))) {
          const expected = expectedGroup(group, raw);
          const objects = await getJson<Obj[]>(t, `/explorer/op/${group.hash}?storage=1&prim=1`);
          objects.forEach((o, i) => {
            if (!o.is_contract) {
              expect(o, o.hash).to.not.have.property('storage');
              return;
            }
            calls++;
            expect(o, o.hash).to.have.property('storage');
            // Contracts originated before this block have no earlier storage; every call of the block left one.
            if (expected[i].storage !== undefined)
              expect(o.storage?.prim, `${o.hash} op_n ${o.op_n}`).to.deep.equal(expected[i].storage);
            const changes = (o.big_map_diff ?? []).map((d: Obj) => ({
              action: d.action,
              bigmap_id: d.bigmap_id,
              ...('key' in d ? { key: d.key } : {}),
              ...('value' in d ? { value: d.value } : {}),
            }));
            expect(changes, `${o.hash} op_n ${o.op_n}`).to.deep.equal(expected[i].bigMapDiff);
          });
          expect(
            (await getJson<Obj[]>(t, `/explorer/op/${group.hash}`)).some((o) => 'storage' in o || 'big_map_diff' in o),
          ).to.equal(false);
        }
        expect(calls).to.equal(expectedBlock(raw).filter((e) => e.isContract).length);
      });

      it('/explorer/block/{id}/operations lists every row once, in block order, through cursor and offset pages', async function () {
        const expected = expectedBlock(raw);
        const all = await readAllPages(t, `/explorer/block/${level}/operations`, 'asc', 'cursor', 50);
        const ops = all.filter((o) => !o.is_event && o.hash !== undefined);
        expect(ops.map((o) => [o.hash, o.type, o.sender])).to.deep.equal(
          expected.map((e) => [e.hash, e.type, e.sender]),
        );
        // Every op_n once: the rows left out by default (contract events) are listed when asked for.
        const events = await getJson<Obj[]>(t, `/explorer/block/${level}/operations?type=event&limit=500`);
        expect(events.map((o) => o.type)).to.deep.equal(internalEvents(raw).map(() => 'event'));
        expect([...all, ...events].map((o) => o.op_n).sort((a, b) => a - b)).to.deep.equal(
          [...all, ...events].map((_o, i) => i),
        );
        const key = (list: Obj[]): number[] => list.map((o) => o.row_id);
        expect(
          key(await readAllPages(t, `/explorer/block/${raw.hash}/operations`, 'desc', 'cursor', 37)),
        ).to.deep.equal(key(all).reverse());
        expect(key(await readAllPages(t, `/explorer/block/${level}/operations`, 'asc', 'offset', 41))).to.deep.equal(
          key(all),
        );
        expect(key(await readAllPages(t, `/explorer/block/${level}/operations`, 'desc', 'offset', 64))).to.deep.equal(
          key(all).reverse(),
        );
        expect(await getJson<Obj[]>(t, `/explorer/block/${level}/operations`)).to.have.length(Math.min(20, all.length));
        const transactions = await getJson<Obj[]>(t, `/explorer/block/${level}/operations?type=transaction&limit=500`);
        expect(transactions.map((o) => o.op_n)).to.deep.equal(
          all.filter((o) => o.type === 'transaction').map((o) => o.op_n),
        );
        // Pages hold at most 500 objects.
        const notEndorsements = await getJson<Obj[]>(
          t,
          `/explorer/block/${level}/operations?type.nin=endorsement,preendorsement&limit=600`,
        );
        const others = all.filter((o) => o.type !== 'endorsement' && o.type !== 'preendorsement');
        expect(notEndorsements.map((o) => o.row_id)).to.deep.equal(others.slice(0, 500).map((o) => o.row_id));
      });

      it('ids: malformed → 400/1301, unknown → 404/1305, .csv → 400/1001; a matching ETag → 304', async function () {
        await expectError(t, '/explorer/block/BLnotahash', 400, 1301);
        await expectError(t, `/explorer/block/${level + 1}`, 404, 1305);
        await expectError(t, `/explorer/block/${b58Encode(new Uint8Array(32), PrefixV2.BlockHash)}`, 404, 1305);
        await expectError(t, `/explorer/block/${level}.csv`, 400, 1001);
        await expectError(t, `/explorer/block/${level + 1}/operations`, 404, 1305);
        await expectError(t, '/explorer/block/-3/operations', 400, 1301);
        await expectError(t, `/explorer/block/${level}/operations.csv`, 400, 1001);
        await expectError(t, `/explorer/block/${level}/operations?limit=x`, 400, 1005);
        await expectError(t, `/explorer/block/${level}/operations?nope=1`, 400, 1007);
        await expectError(t, '/explorer/op/onotahash', 400, 1301);
        await expectError(t, `/explorer/op/${b58Encode(new Uint8Array(32), PrefixV2.OperationHash)}`, 404, 1305);
        // The shape of an operation hash with a broken checksum: malformed, not unknown.
        const stored = groups[0].hash as string;
        const corrupt = `${stored.slice(0, 20)}${stored[20] === '1' ? '2' : '1'}${stored.slice(21)}`;
        await expectError(t, `/explorer/op/${corrupt}`, 400, 1301);
        // Its last character changed: the stored payload (raw bytes) may be the same; the checksum is not.
        await expectError(t, `/explorer/op/${stored.slice(0, -1)}${stored.endsWith('1') ? '2' : '1'}`, 400, 1301);
        await expectError(t, `/explorer/op/${level * 2 ** 16 + 60_000}`, 404, 1305);
        await expectError(t, `/explorer/op/${groups[0].hash}.csv`, 400, 1001);
        await expectError(t, `/explorer/op/${groups[0].hash}?prim=maybe`, 400, 1005);
        await expectNotModified(t, `/explorer/block/${level}`);
        await expectNotModified(t, `/explorer/block/${level}/operations?limit=5`);
        await expectNotModified(t, `/explorer/op/${groups[0].hash}`);
      });
    });
  }
});
