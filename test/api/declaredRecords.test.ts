import { expect } from 'chai';
import { ApiError } from '../../framework/errors/ApiError';
import { RouteRegistry } from '../../framework/http/RouteRegistry';
import type { TextRow } from '../../framework/http/RouteShapers';
import { PluginClass, PluginContribution } from '../../framework/plugins/Plugin';
import { probes } from '../support/probes';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';

// Declared routes whose records a plugin shapes in code (tables.yaml `record:`), with a key resolver
// for a path parameter (`resolve:`), the object list profile, filter aliases, a parameter over any
// of several columns, `open_only` and the switches a route declares. The oracles are the rows inserted below and the
// shaper's rule.
const ROUTES = `
      - { path: /x/lots, scope: ListLots, kind: list, table: lot, record: lot, profile: object, aliases: { block: height, party: [owner, seller] }, open_only: is_closed, switches: [meta] }
      - { path: /x/thing/:key/lots, scope: ListThingLots, kind: list, table: lot, record: lot, profile: object, params: { key: { column: thing, resolve: thing } } }
      - { path: /x/wallet/:addr/lots, scope: ListWalletLots, kind: list, table: lot, record: lot, profile: object, params: { addr: { column: [owner, seller], what: address } }, open_only: is_closed }
      - { path: /x/lot/:id, scope: GetLot, kind: object, table: lot, record: lot, params: { id: { column: row_id, what: lot id } }, not_found: no such lot, switches: [meta] }
`;
const catalog = (routes: string): string => `
version: 1
plugins:
  fixture:
    tables:
      lot:
        columns:
          - { name: row_id, type: uint64 }
          - { name: thing, type: address }
          - { name: owner, type: address }
          - { name: seller, type: address }
          - { name: amount, type: bigint }
          - { name: height, type: uint64 }
          - { name: is_closed, type: bool }
    routes:${routes}`;

const ALICE = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';
const BOB = 'tz1aSkwEot3L2kmUvcoxzjMomb9mvBNuzFK6';
const CAROL = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const NAMES: Record<string, string> = { alice: ALICE, bob: BOB };
// An amount beyond 2^64: a shaper reads rows as text, exact.
const BIG = '123456789012345678901234567890';
const LOTS = [1, 2, 3, 4, 5, 6].map((i) => ({
  row_id: i,
  thing: i % 2 === 0 ? ALICE : BOB,
  owner: i <= 3 ? ALICE : CAROL,
  seller: i === 5 ? BOB : CAROL,
  amount: i === 1 ? BIG : String(i * 10),
  height: 100 + i,
  is_closed: i === 2,
}));
type Lot = (typeof LOTS)[number];
/**
 * The record the shaper below makes of a lot (with its owner when the `meta` switch is on): the oracle of every answer.
 */
const record = (l: Lot) => ({
  id: l.row_id,
  thing: Object.keys(NAMES).find((k) => NAMES[k] === l.thing),
  amount: l.amount,
  label: `lot ${l.row_id} at ${l.height}`,
});
const withMeta = (l: Lot) => ({ ...record(l), meta: { owner: l.owner } });

class LotsPlugin {
  static readonly manifest = { name: 'fixture' };
  setup(): PluginContribution {
    return { routes: (r) => this.routes(r) };
  }

  private routes(r: RouteRegistry): void {
    const name = (address: string | null) => Object.keys(NAMES).find((k) => NAMES[k] === address);
    r.shapers.record('lot', async (rows: readonly TextRow[], switches) =>
      rows.map((row) => ({
        id: Number(row.row_id),
        thing: name(row.thing),
        amount: row.amount,
        label: `lot ${row.row_id} at ${row.height}`,
        ...(switches.meta ? { meta: { owner: row.owner } } : {}),
      })),
    );
    r.shapers.key('thing', async (raw) => {
      if (!/^[a-z]+$/.test(raw)) throw ApiError.malformedId(`invalid thing name '${raw}'`);
      const address = NAMES[raw];
      if (!address) throw ApiError.notFound(`no thing named '${raw}'`);
      return address;
    });
  }
}
const PLUGIN = LotsPlugin as unknown as PluginClass;

describe(`declared routes shaped by a plugin's records (${BACKEND})`, function () {
  let t: TestInstance;
  before(async function () {
    t = await startTestInstance({ catalogYaml: catalog(ROUTES), plugins: [PLUGIN] });
    await t.insert('lot', LOTS);
  });
  after(async () => t?.close());

  const { json, error } = probes(() => t);

  const open = LOTS.filter((l) => !l.is_closed);

  it('lists the shaped records of open rows, with_closed adding the closed ones, exact amounts kept', async () => {
    expect(await json('/x/lots')).to.deep.equal(open.map(record));
    expect(await json('/x/lots?with_closed=true')).to.deep.equal(LOTS.map(record));
    expect(await json('/x/lots?order=desc&limit=2&offset=1')).to.deep.equal(
      [...open].reverse().slice(1, 3).map(record),
    );
    expect(await json('/x/lots?limit=0')).to.deep.equal([]);
  });

  it('filters by the declared aliases: one column, or any of several', async () => {
    expect(await json('/x/lots?block.gte=104')).to.deep.equal(open.filter((l) => l.height >= 104).map(record));
    expect(await json(`/x/lots?party=${BOB}`)).to.deep.equal(
      open.filter((l) => l.owner === BOB || l.seller === BOB).map(record),
    );
    expect((await error(`/x/lots?wallet=${BOB}`, 400)).detail).to.contain("unknown column 'wallet'");
    expect((await error('/x/lots?with_closed=maybe', 400)).detail).to.contain('with_closed');
  });

  it("resolves a path parameter with the plugin's key resolver first: 400 malformed, 404 unknown", async () => {
    expect(await json('/x/thing/alice/lots')).to.deep.equal(LOTS.filter((l) => l.thing === ALICE).map(record));
    expect(await error('/x/thing/Al1ce/lots?limit=x', 400)).to.deep.include({
      code: 1301,
      detail: "invalid thing name 'Al1ce'",
    });
    expect(await error('/x/thing/carol/lots?limit=x', 404)).to.deep.include({
      code: 1305,
      detail: "no thing named 'carol'",
    });
  });

  it('matches a wallet in any of the declared columns, checked by their type', async () => {
    expect(await json(`/x/wallet/${BOB}/lots?with_closed=1`)).to.deep.equal(
      LOTS.filter((l) => l.owner === BOB || l.seller === BOB).map(record),
    );
    expect(await json(`/x/wallet/${ALICE}/lots`)).to.deep.equal(open.filter((l) => l.owner === ALICE).map(record));
    expect(await error('/x/wallet/tz1nope/lots', 400)).to.deep.include({
      code: 1301,
      detail: "invalid address 'tz1nope'",
    });
  });

  it('answers an object as its shaped record, 404 when no row matches', async () => {
    expect(await json('/x/lot/1')).to.deep.equal(record(LOTS[0]));
    expect(await error('/x/lot/99', 404)).to.deep.include({ code: 1305, detail: 'no such lot' });
  });

  it('hands the declared switches to the shaper, checked as booleans; other switches are ignored', async () => {
    expect(await json('/x/lot/4?meta=1')).to.deep.equal(withMeta(LOTS[3]));
    expect(await json('/x/lot/4?meta=false&prim=1')).to.deep.equal(record(LOTS[3]));
    expect(await json('/x/lots?meta=true&limit=2')).to.deep.equal(open.slice(0, 2).map(withMeta));
    expect(await json('/x/lots?prim=1&limit=2')).to.deep.equal(open.slice(0, 2).map(record));
    expect(await json(`/x/wallet/${BOB}/lots?meta=1`)).to.deep.equal(
      open.filter((l) => l.owner === BOB || l.seller === BOB).map(record),
    );
    expect((await error('/x/lot/4?meta=maybe', 400)).detail).to.equal(
      "invalid meta 'maybe': expected 1/0 or true/false",
    );
    expect((await error('/x/lots?meta=maybe', 400)).detail).to.equal(
      "invalid meta 'maybe': expected 1/0 or true/false",
    );
  });

  it('documents the profile list parameters and with_closed', async () => {
    const doc = (await json('/openapi.json')) as {
      paths: Record<string, { get: { parameters?: Array<{ name: string }> } }>;
    };
    const names = (doc.paths['/x/lots'].get.parameters ?? []).map((p) => p.name);
    expect(names).to.include.members(['limit', 'offset', 'cursor', 'order', 'with_closed']);
  });

  it('refuses to start when a declared record shaper or key resolver is not registered', async () => {
    for (const [routes, name] of [
      ['\n      - { path: /x/all, scope: ListAll, kind: list, table: lot, record: lots }\n', "record shaper 'lots'"],
      [
        '\n      - { path: /x/t/:key, scope: ListT, kind: list, table: lot, record: lot, params: { key: { column: thing, resolve: owner } } }\n',
        "key resolver 'owner'",
      ],
    ]) {
      const started = await startTestInstance({ catalogYaml: catalog(routes), plugins: [PLUGIN] }).then(
        async (other) => {
          await other.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(started, name).to.be.instanceOf(Error).with.property('message').that.contains(name);
    }
  });
});
