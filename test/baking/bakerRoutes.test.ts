import { expect } from 'chai';
import { ErrorCode } from '../../framework';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import { mutez, readTable, type CsvRow } from '../core-chain/support/tableReader';
import { expectError, getJson, type Obj } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import type { TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { OP_COUNTERS, oracleOpCounts } from './support/opCountOracle';

describe(`baking: /explorer/bakers (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'bakers', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;
  let accounts: CsvRow[];
  let bakers: CsvRow[];

  before(async function () {
    chain.bakeTo(20);
    t = await startBakingInstance();
    await indexSandbox(t, chain, {});
    accounts = await readTable(t, 'account', ['row_id', 'address', 'baker', 'spendable_balance', 'is_baker']);
    bakers = accounts.filter((a) => a.is_baker === 'true').sort((a, b) => Number(a.row_id) - Number(b.row_id));
    expect(bakers.length).to.be.greaterThan(2);
  });
  after(async () => t?.close());

  it('pages the registered bakers by offset and cursor in both orders', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const want = (order === 'asc' ? bakers : [...bakers].reverse()).map((b) => b.address);
      const byOffset: string[] = [];
      for (let page = 0; page < 100; page++) {
        const items = await getJson<Obj[]>(t, `/explorer/bakers?order=${order}&limit=2&offset=${byOffset.length}`);
        byOffset.push(...items.map((b) => b.address as string));
        if (items.length < 2) break;
      }
      expect(byOffset, `offset ${order}`).to.deep.equal(want);
      // Each item carries its row_id (the account row's), and the last one's is the next page's cursor.
      const rowId = new Map(bakers.map((b) => [b.address, Number(b.row_id)]));
      const byCursor: Obj[] = [];
      for (let page = 0; page < 100; page++) {
        const cursor = byCursor.length ? `&cursor=${byCursor[byCursor.length - 1].row_id}` : '';
        const items = await getJson<Obj[]>(t, `/explorer/bakers?order=${order}&limit=2${cursor}`);
        byCursor.push(...items);
        if (items.length < 2) break;
      }
      expect(
        byCursor.map((b) => b.address),
        `cursor ${order}`,
      ).to.deep.equal(want);
      for (const b of byCursor) expect(b.row_id, b.address).to.equal(rowId.get(b.address));
    }
  });

  it("a baker's stats sum its income rows; its events are its last block and attestation and its next rights after the head", async () => {
    const income = await readTable(t, 'income', [
      'address',
      'cycle',
      'baking_income',
      'endorsing_income',
      'seed_income',
      'accusation_income',
      'fees_income',
      'total_loss',
      'n_blocks_baked',
      'n_blocks_endorsed',
      'n_slots_endorsed',
      'performance_percent',
    ]);
    const blocks = Array.from({ length: 21 }, (_, l) => JSON.parse(chain.blockJson(chain.at(l)!)));
    const list = await getJson<Obj[]>(t, '/explorer/bakers?limit=500');
    const ops = oracleOpCounts(blocks);
    let withStats = 0;
    for (const b of bakers) {
      const mine = income.filter((r) => r.address === b.address);
      const item = list.find((x) => x.address === b.address)!;
      const stats = item.stats as Obj | null;
      if (mine.length === 0) {
        expect(stats, b.address).to.equal(null);
        continue;
      }
      const sum = (cols: string[]) => mine.reduce((n, r) => n + cols.reduce((m, c) => m + mutez(r[c]), 0n), 0n);
      expect(mutez(String(stats!.total_rewards_earned)), `${b.address} rewards`).to.equal(
        sum(['baking_income', 'endorsing_income', 'seed_income', 'accusation_income']),
      );
      expect(mutez(String(stats!.total_fees_earned)), `${b.address} fees`).to.equal(sum(['fees_income']));
      // Blocks baked and attestations from the chain itself.
      expect(stats!.blocks_baked, `${b.address} baked`).to.equal(
        blocks.slice(1).filter((x) => x.metadata.baker === b.address).length,
      );
      expect(stats!.blocks_endorsed).to.equal(mine.reduce((n, r) => n + Number(r.n_blocks_endorsed), 0));
      expect(stats!.slots_endorsed).to.equal(mine.reduce((n, r) => n + Number(r.n_slots_endorsed), 0));
      // Operation counters: every cycle's count of its operations in the chain's blocks.
      for (const c of ['n_baker_ops', ...OP_COUNTERS])
        expect(stats![c], `${b.address} ${c}`).to.equal(
          [...ops].filter(([k]) => k.endsWith(`_${b.address}`)).reduce((n, [, v]) => n + (v[c] ?? 0), 0),
        );
      withStats++;
      const full = await getJson<Obj>(t, `/explorer/bakers/${b.address}?meta=1`);
      expect(full.stats).to.deep.equal(stats);
      const events = full.events as Obj;
      const baked = blocks
        .filter((x) => x.header.level > 0 && x.metadata.baker === b.address)
        .map((x) => x.header.level as number);
      expect(events.last_bake_height, `${b.address} last bake`).to.equal(baked.length ? Math.max(...baked) : 0);
      // The last block that included one of its attestations.
      const attested = blocks.filter((x) =>
        (x.operations[0] ?? []).some((op: Obj) =>
          (op.contents as Obj[]).some(
            (c) =>
              (c.metadata as Obj)?.delegate === b.address ||
              ((c.metadata as Obj)?.committee as Obj[] | undefined)?.some((m) => m.delegate === b.address),
          ),
        ),
      );
      expect(events.last_endorse_height, `${b.address} last attestation`).to.equal(
        attested.length ? attested[attested.length - 1].header.level : 0,
      );
      // Its next round-0 baking right after the head, as the node tells, when the indexed rights reach it.
      const rights = JSON.parse(
        (
          await transport.get(
            `/chains/main/blocks/head/helpers/baking_rights?delegate=${b.address}&max_round=0&cycle=${blocks[20].metadata.level_info.cycle}`,
          )
        ).body,
      ) as Obj[];
      const next = rights.map((r) => r.level as number).filter((l) => l > 20);
      if (next.length) expect(events.next_bake_height, `${b.address} next bake`).to.equal(Math.min(...next));
    }
    expect(withStats).to.be.greaterThan(1);
    expect(list.some((x) => (x.stats as Obj | null)?.avg_performance_64 !== null)).to.equal(true);
  });

  it("a baker's grace period, consensus key, staking parameters and baking power are the node's at the newest stake snapshot", async () => {
    const snapshots = await readTable(t, 'snapshot', ['height', 'address', 'is_baker']);
    const level = Math.max(...snapshots.map((r) => Number(r.height)));
    const node = async (path: string) => JSON.parse((await transport.get(`/chains/main/blocks/${level}/${path}`)).body);
    const listed: string[] = await node('context/delegates');
    const info = new Map<string, Obj>();
    for (const d of listed) info.set(d, await node(`context/delegates/${d}`));
    const total = [...info.values()]
      .filter((i) => i.deactivated !== true)
      .reduce((n, i) => n + BigInt(i.baking_power as string), 0n);
    let checked = 0;
    for (const b of bakers) {
      const got = await getJson<Obj>(t, `/explorer/bakers/${b.address}`);
      const i = info.get(b.address);
      if (!i || i.deactivated === true) {
        expect(got.is_active, `${b.address} not in the snapshot`).to.equal(false);
        continue;
      }
      const params = i.active_staking_parameters as Obj;
      expect(got.is_active).to.equal(true);
      expect(got.grace_period, `${b.address} grace`).to.equal(i.grace_period);
      expect(got.consensus_address).to.equal(((i.consensus_key as Obj).active as Obj).pkh);
      expect(got.consensus_key).to.equal(((i.consensus_key as Obj).active as Obj).pk);
      expect(got.staking_limit).to.equal(params.limit_of_staking_over_baking_millionth);
      expect(got.staking_edge).to.equal(params.edge_of_baking_over_staking_billionth);
      expect(BigInt(got.baking_power as number)).to.equal(BigInt(i.baking_power as string));
      expect(got.network_share).to.be.closeTo(Number(BigInt(i.baking_power as string)) / Number(total), 1e-6);
      checked++;
    }
    expect(checked).to.be.greaterThan(1);
  });

  it('filters by active (suggest: capacity.test.ts)', async () => {
    const active = await getJson<Obj[]>(t, `/explorer/bakers?active=true&limit=500`);
    expect(active.map((b) => b.address)).to.have.members(
      bakers.filter((b) => mutez(b.spendable_balance) > 0n).map((b) => b.address),
    );
    expect(
      (await getJson<Obj[]>(t, `/explorer/bakers?active=1&limit=500`)).map((b) => b.address),
      'active=1 as active=true',
    ).to.deep.equal(active.map((b) => b.address));
    expect((await getJson<Obj[]>(t, `/explorer/bakers?status=active&limit=500`)).map((b) => b.address)).to.deep.equal(
      active.map((b) => b.address),
    );
    const inactive = await getJson<Obj[]>(t, `/explorer/bakers?status=inactive&limit=500`);
    expect(inactive.map((b) => b.address)).to.have.members(
      bakers.filter((b) => mutez(b.spendable_balance) === 0n).map((b) => b.address),
    );
    for (const bad of ['active=maybe', 'status=sleeping']) {
      const res = await fetch(`${t.url}/explorer/bakers?${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(((await res.json()) as { errors?: unknown[] }).errors, bad).to.be.an('array');
    }
  });

  it('a page of bakers carries the same delegation figures as each baker object', async () => {
    const page = await getJson<Obj[]>(t, `/explorer/bakers?limit=500`);
    expect(page.length).to.equal(bakers.length);
    for (const b of page) {
      const o = await getJson(t, `/explorer/bakers/${b.address}`);
      expect([b.active_delegations, b.delegated_balance], String(b.address)).to.deep.equal([
        o.active_delegations,
        o.delegated_balance,
      ]);
    }
  });

  it('a baker object: balance and delegators computed from the account rows', async () => {
    let delegated = 0;
    for (const b of bakers) {
      const o = await getJson(t, `/explorer/bakers/${b.address}`);
      const delegators = accounts.filter(
        (a) => a.baker === b.address && a.address !== b.address && mutez(a.spendable_balance) > 0n,
      );
      expect(o.address).to.equal(b.address);
      expect(mutez(String(o.spendable_balance))).to.equal(mutez(b.spendable_balance));
      expect(o.active_delegations).to.equal(delegators.length);
      expect(mutez(String(o.delegated_balance))).to.equal(
        delegators.reduce((s, a) => s + mutez(a.spendable_balance), 0n),
      );
      expect(o.is_active).to.equal(true);
      if (delegators.length > 0) delegated++;
    }
    expect(delegated, 'bakers with delegators compared').to.be.greaterThan(0);
  });

  it("lists a baker's attestations and the delegations to it like the op table says, paged", async () => {
    const ops = await readTable(t, 'op', ['row_id', 'type', 'sender', 'baker']);
    let compared = 0;
    for (const b of bakers) {
      for (const [path, type, role] of [
        ['endorsements', 'endorsement', 'sender'],
        ['delegations', 'delegation', 'baker'],
      ] as const) {
        const want = ops
          .filter((o) => o.type === type && o[role] === b.address)
          .map((o) => Number(o.row_id))
          .sort((x, y) => x - y);
        const got: number[] = [];
        for (let page = 0; page < 1000; page++) {
          const cursor = got.length ? `&cursor=${got[got.length - 1]}` : '';
          const items = await getJson<Obj[]>(t, `/explorer/bakers/${b.address}/${path}?order=asc&limit=7${cursor}`);
          got.push(...items.map((o) => o.row_id as number));
          if (items.length < 7) break;
        }
        expect(got, `${path} of ${b.address}`).to.deep.equal(want);
        if (want.length > 0) compared++;
      }
    }
    expect(compared).to.be.greaterThan(0);
  });

  it('answers 400 for a malformed hash and 404 for an account that is no baker', async () => {
    await expectError(t, '/explorer/bakers/tz1notanaddress', 400, ErrorCode.RESOURCE_ID_MALFORMED);
    const nonBaker = accounts.find((a) => a.is_baker !== 'true');
    expect(nonBaker, 'a non-baker account').to.not.equal(undefined);
    await expectError(t, `/explorer/bakers/${nonBaker!.address}`, 404, ErrorCode.RESOURCE_NOTFOUND);
    await expectError(t, `/explorer/bakers/${nonBaker!.address}/endorsements`, 404, ErrorCode.RESOURCE_NOTFOUND);
    await expectError(t, '/explorer/bakers/xyz/delegations', 400, ErrorCode.RESOURCE_ID_MALFORMED);
  });
});
