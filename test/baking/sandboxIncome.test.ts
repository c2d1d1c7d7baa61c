import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { mutez, readTable, type CsvRow } from '../core-chain/support/tableReader';
import { expectError, getJson } from '../explorer/support/api';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { ErrorCode, tezToMutez } from '../../framework';
import { startTestInstance, type TestInstance } from '../support/TestInstance';
import { startBakingInstance } from './support/bakingInstance';
import { OP_COUNTERS, oracleOpCounts } from './support/opCountOracle';
import { oracleIncome } from './support/receiptOracle';

// tiny: 8-block cycles, so 44 blocks hold five whole cycles; the reorg replaces levels 38–40.
const HEAD = 44;
const OPTIONS = { reorgDepth: 8, batchBlocks: 16 };
// Attestation rights in windows of 3 levels: three windows per 8-level cycle, the last cut by the cycle end.
const WINDOW = 3;
const CONFIG = { baking: { rights_window: WINDOW } };
const MONEY = [
  'baking_income',
  'endorsing_income',
  'fees_income',
  'seed_income',
  'accusation_income',
  'total_deposits',
];
const COUNTS = [
  'n_blocks_baked',
  'n_blocks_proposed',
  'n_blocks_endorsed',
  'n_slots_endorsed',
  'n_baking_rights',
  'n_endorsing_rights',
  'n_blocks_not_baked',
  'n_blocks_not_endorsed',
  'n_seeds_revealed',
  'n_baker_ops',
  ...OP_COUNTERS,
];

const bitsOf = (hex: string): number[] => {
  const out: number[] = [];
  Buffer.from(hex, 'hex').forEach((b, i) => {
    for (let k = 0; k < 8; k++) if (b & (1 << k)) out.push(i * 8 + k);
  });
  return out;
};

describe(`baking: income and rights of a sandbox chain (${BACKEND})`, function () {
  this.timeout(300_000);
  const chain = new SandboxChain({ seed: 'baking', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;
  let blocks: Json[];
  let income: CsvRow[];
  let rights: CsvRow[];
  const rpc = async (path: string): Promise<Json[]> => JSON.parse((await transport.get(path)).body);

  before(async function () {
    chain.bakeTo(HEAD - 4);
    t = await startBakingInstance(CONFIG);
    await indexSandbox(t, chain, OPTIONS);
    chain.reorg(3);
    chain.bakeTo(HEAD);
    await indexSandbox(t, chain, OPTIONS);
    blocks = [];
    for (let level = 0; level <= chain.headLevel; level++) blocks.push(JSON.parse(chain.blockJson(chain.at(level)!)));
    income = await readTable(t, 'income', ['cycle', 'address', ...MONEY, ...COUNTS, 'total_income']);
    rights = await readTable(t, 'rights', [
      'cycle',
      'height',
      'address',
      'baking_rights',
      'endorsing_rights',
      'blocks_baked',
      'blocks_endorsed',
      'seeds_required',
      'seeds_revealed',
    ]);
  });
  after(async () => t?.close());

  it('income per baker and cycle equals an independent sum over the receipts', () => {
    const oracle = oracleIncome(blocks);
    let compared = 0;
    const seen = new Set<string>();
    for (const row of income) {
      const key = `${row.cycle}_${row.address}`;
      seen.add(key);
      const want = oracle.get(key) ?? {};
      for (const c of MONEY) expect(mutez(row[c]), `${key} ${c}`).to.equal(want[c] ?? 0n);
      const total = ['baking_income', 'endorsing_income', 'fees_income', 'seed_income', 'accusation_income'].reduce(
        (s, c) => s + (want[c] ?? 0n),
        0n,
      );
      expect(mutez(row.total_income), `${key} total`).to.equal(total);
      compared++;
    }
    for (const [key, sums] of oracle)
      if (Object.entries(sums).some(([c, v]) => MONEY.includes(c) && v !== 0n))
        expect(seen.has(key), `income row ${key}`).to.equal(true);
    expect(compared).to.be.greaterThan(5);
    expect(
      income.some((r) => mutez(r.baking_income) > 0n) && income.some((r) => mutez(r.endorsing_income) > 0n),
    ).to.equal(true);
  });

  it('blocks baked and attestations per baker and cycle equal the blocks', () => {
    const baked = new Map<string, number>();
    const attested = new Map<string, number>();
    for (const b of blocks.slice(1)) {
      const cycle = b.metadata.level_info.cycle;
      const key = `${cycle}_${b.metadata.baker}`;
      baked.set(key, (baked.get(key) ?? 0) + 1);
      for (const op of b.operations[0] ?? [])
        for (const c of op.contents) {
          // Single attestations (with or without DAL content) and the members of an aggregate.
          const single = ['attestation', 'attestation_with_dal', 'endorsement', 'endorsement_with_slot'].includes(
            c.kind,
          );
          const members: Json[] = single
            ? [{ delegate: c.metadata.delegate }]
            : c.kind === 'attestations_aggregate'
              ? (c.metadata?.committee ?? [])
              : [];
          const level = single ? c.level : c.consensus_content?.level;
          for (const m of members) {
            const k = `${blocks[level].metadata.level_info.cycle}_${m.delegate}`;
            attested.set(k, (attested.get(k) ?? 0) + 1);
          }
        }
    }
    for (const row of income) {
      const key = `${row.cycle}_${row.address}`;
      expect(Number(row.n_blocks_baked), `${key} baked`).to.equal(baked.get(key) ?? 0);
      expect(Number(row.n_blocks_endorsed), `${key} endorsed`).to.equal(attested.get(key) ?? 0);
    }
    expect([...baked.values()].reduce((s, n) => s + n, 0)).to.equal(HEAD);
  });

  it('baker operation counters per baker and cycle equal an independent count over the blocks', () => {
    const oracle = oracleOpCounts(blocks);
    const seen = new Set<string>();
    for (const row of income) {
      const key = `${row.cycle}_${row.address}`;
      seen.add(key);
      const want = oracle.get(key) ?? {};
      for (const c of ['n_baker_ops', ...OP_COUNTERS]) expect(Number(row[c]), `${key} ${c}`).to.equal(want[c] ?? 0);
    }
    for (const key of oracle.keys()) expect(seen.has(key), `income row ${key}`).to.equal(true);
    // The chain has attestations, revelations, votes and denunciations to count.
    for (const c of ['n_endorsements', 'n_nonce_revelations', 'n_accusations'])
      expect(
        income.some((r) => Number(r[c]) > 0),
        c,
      ).to.equal(true);
  });

  it("seed bitsets and n_seeds_revealed equal the blocks' nonce commitments and revelations", () => {
    const required = new Map<string, number[]>();
    const revealed = new Map<string, number[]>();
    const revelations = new Map<string, number>();
    const push = (m: Map<string, number[]>, key: string, pos: number) => m.set(key, [...(m.get(key) ?? []), pos]);
    const committedAt = (level: number) => {
      const b = blocks[level];
      return {
        key: `${b.metadata.level_info.cycle}_${b.metadata.baker}`,
        pos: b.metadata.level_info.cycle_position as number,
      };
    };
    for (const b of blocks.slice(1)) {
      if (b.header.seed_nonce_hash) push(required, committedAt(b.header.level).key, committedAt(b.header.level).pos);
      for (const op of b.operations[2] ?? [])
        for (const c of op.contents)
          if (c.kind === 'seed_nonce_revelation') {
            push(revealed, committedAt(c.level).key, committedAt(c.level).pos);
            const key = `${b.metadata.level_info.cycle}_${b.metadata.proposer}`;
            revelations.set(key, (revelations.get(key) ?? 0) + 1);
          }
    }
    expect(required.size).to.be.greaterThan(3);
    expect(revealed.size).to.be.greaterThan(2);
    for (const r of rights) {
      const key = `${r.cycle}_${r.address}`;
      expect(bitsOf(r.seeds_required), `${key} seeds_required`).to.deep.equal(
        (required.get(key) ?? []).sort((a, b) => a - b),
      );
      expect(bitsOf(r.seeds_revealed), `${key} seeds_revealed`).to.deep.equal(
        (revealed.get(key) ?? []).sort((a, b) => a - b),
      );
    }
    for (const key of required.keys())
      expect(
        rights.some((r) => `${r.cycle}_${r.address}` === key),
        key,
      ).to.equal(true);
    for (const row of income)
      expect(Number(row.n_seeds_revealed), `${row.cycle}_${row.address} revealed`).to.equal(
        revelations.get(`${row.cycle}_${row.address}`) ?? 0,
      );
  });

  it('rights bitsets equal the sandbox rights RPC for every cycle', async () => {
    let cycles = 0;
    for (let cycle = 1; cycle <= blocks[HEAD].metadata.level_info.cycle; cycle++) {
      const first = blocks.find(
        (b) =>
          b.header.level > 0 && b.metadata.level_info.cycle === cycle && b.metadata.level_info.cycle_position === 0,
      )!;
      const start = first.header.level;
      const baking: Json[] = await rpc(`/chains/main/blocks/${start}/helpers/baking_rights?cycle=${cycle}&max_round=0`);
      const attesting: Json[] = await rpc(`/chains/main/blocks/${start}/helpers/attestation_rights?cycle=${cycle}`);
      const want = new Map<string, { baking: number[]; attesting: number[]; slots: number }>();
      const entry = (d: string) => want.get(d) ?? want.set(d, { baking: [], attesting: [], slots: 0 }).get(d)!;
      for (const r of baking) if (r.round === 0) entry(r.delegate).baking.push(r.level - start);
      // The indexer asks for a window of attestation rights at each window's first block: the open
      // cycle holds those of the windows its indexed blocks began.
      const indexed = blocks.filter((b) => b.header.level > 0 && b.metadata.level_info.cycle === cycle).length;
      const fetched = Math.ceil(indexed / WINDOW) * WINDOW;
      for (const l of attesting)
        for (const d of l.delegates)
          if (l.level - start < fetched) {
            entry(d.delegate).attesting.push(l.level - start);
            entry(d.delegate).slots += Number(d.attesting_power);
          }
      const got = rights.filter(
        (r) => Number(r.cycle) === cycle && (r.baking_rights !== '' || r.endorsing_rights !== ''),
      );
      expect(got.map((r) => r.address).sort(), `cycle ${cycle} bakers`).to.deep.equal([...want.keys()].sort());
      for (const r of got) {
        expect(bitsOf(r.baking_rights), `${cycle} ${r.address} baking`).to.deep.equal(
          want.get(r.address)!.baking.sort((a, b) => a - b),
        );
        expect(bitsOf(r.endorsing_rights), `${cycle} ${r.address} attesting`).to.deep.equal(
          want.get(r.address)!.attesting.sort((a, b) => a - b),
        );
        expect(Number(r.height)).to.equal(start);
        // The income row counts the same rights: round-0 blocks, and attestation slots.
        const inc = income.find((i) => i.cycle === r.cycle && i.address === r.address)!;
        expect(Number(inc.n_baking_rights), `${cycle} ${r.address} n_baking_rights`).to.equal(
          want.get(r.address)!.baking.length,
        );
        expect(Number(inc.n_endorsing_rights), `${cycle} ${r.address} n_endorsing_rights`).to.equal(
          want.get(r.address)!.slots,
        );
      }
      cycles++;
    }
    expect(cycles).to.be.greaterThan(3);
  });

  it('/explorer/block/{height}?rights=1 lists the rights at the block: used, lost, stolen and missed, as the node and the blocks say', async () => {
    const kinds = new Set<string>();
    const revealedLevels = new Set<number>();
    for (const b of blocks)
      for (const op of b.operations?.[2] ?? [])
        for (const c of op.contents) if (c.kind === 'seed_nonce_revelation') revealedLevels.add(c.level);
    let checked = 0;
    for (
      let level = blocks.findIndex((b) => b.header.level > 0 && b.metadata.level_info.cycle === 1);
      level <= HEAD;
      level++
    ) {
      const b = blocks[level];
      const round0 = (
        (await rpc(`/chains/main/blocks/${level}/helpers/baking_rights?level=${level}&max_round=0`)) as Json[]
      ).map((r) => r.delegate as string);
      const attesters = (
        (await rpc(`/chains/main/blocks/${level}/helpers/attestation_rights?level=${level}`)) as Json[]
      ).flatMap((l) => (l.delegates as Json[]).map((d) => d.delegate as string));
      // Attestations of this level are in the next block (single ones and aggregate members).
      const included = new Set<string>();
      for (const op of blocks[level + 1]?.operations[0] ?? [])
        for (const c of op.contents) {
          const lvl = c.level ?? c.consensus_content?.level;
          if (lvl !== level) continue;
          if (c.metadata?.delegate) included.add(c.metadata.delegate);
          for (const m of c.metadata?.committee ?? []) included.add(m.delegate);
        }
      const baker = b.metadata.baker as string;
      const round = parseInt(b.header.fitness[4] ?? '00000000', 16);
      // A round-0 right is used when its holder baked the block (at any round); a baker without one stole it.
      const right = (type: string, address: string, r: number | null, flags: Json) => ({
        type,
        address,
        round: r,
        is_used: false,
        is_lost: false,
        is_stolen: false,
        is_missed: false,
        is_seed_required: null,
        is_seed_revealed: null,
        ...flags,
      });
      // Seed duties: the block's baker committed when its header carries a nonce hash, revealed when a later block
      // names the level.
      const committed = Boolean(b.header.seed_nonce_hash);
      const seed = (d: string) => ({
        is_seed_required: d === baker && committed,
        is_seed_revealed: d === baker && committed && revealedLevels.has(level),
      });
      const want: Json[] = round0.map((d) =>
        right('baking', d, 0, { is_used: d === baker, is_lost: d !== baker, ...seed(d) }),
      );
      if (!round0.includes(baker))
        want.push(right('baking', baker, round, { is_used: true, is_stolen: true, ...seed(baker) }));
      for (const d of attesters)
        want.push(
          right('endorsing', d, null, { is_used: included.has(d), is_missed: !included.has(d) && level < HEAD }),
        );
      const got = (await getJson<Json>(t, `/explorer/block/${level}?rights=1`)).rights as Json[];
      expect(got, `rights at ${level}`).to.have.deep.members(want);
      expect(got).to.have.length(want.length);
      for (const r of got)
        kinds.add(
          `${r.type}:${Object.keys(r)
            .filter((k) => k.startsWith('is_') && r[k] === true)
            .join(',')}`,
        );
      checked++;
    }
    expect(checked).to.be.greaterThan(20);
    for (const k of ['baking:is_used', 'baking:is_lost', 'endorsing:is_used']) expect([...kinds], k).to.include(k);
    expect(
      [...kinds].some((k) => k.includes('is_seed_revealed')),
      'a revealed seed',
    ).to.equal(true);
    // Without rights=1 there is no rights field; a cycle whose rights were never fetched has null.
    expect(await getJson<Json>(t, `/explorer/block/${HEAD}`)).to.not.have.property('rights');
  });

  it("a closed cycle's income rows end at its last block; the open cycle's have no end yet", async () => {
    const rows = await readTable(t, 'income', ['cycle', 'address', 'start_time', 'end_time']);
    const open = blocks[HEAD].metadata.level_info.cycle;
    for (const r of rows) {
      const levels = blocks.filter((b) => b.header.level > 0 && b.metadata.level_info.cycle === Number(r.cycle));
      expect(Date.parse(r.start_time), `${r.cycle} ${r.address} start`).to.equal(
        Date.parse(levels[0].header.timestamp),
      );
      if (Number(r.cycle) === open) expect(r.end_time, `${r.cycle} ${r.address} open`).to.equal('');
      else
        expect(Date.parse(r.end_time), `${r.cycle} ${r.address} end`).to.equal(
          Date.parse(levels[levels.length - 1].header.timestamp),
        );
    }
    expect(rows.filter((r) => r.end_time !== '').length).to.be.greaterThan(5);
  });

  it('/explorer/cycle/{id} carries attesters at work, missed attestations, the endorsement rate and the snapshot behind the cycle', async () => {
    const constants = JSON.parse((await transport.get('/chains/main/blocks/head/context/constants')).body);
    const lag = Number(constants.consensus_rights_delay) + 1;
    const open = blocks[HEAD].metadata.level_info.cycle;
    const levelsOf = (cycle: number) =>
      blocks
        .filter((b) => b.header.level > 0 && b.metadata.level_info.cycle === cycle)
        .map((b) => b.header.level as number);
    for (let cycle = 1; cycle <= open; cycle++) {
      const got = await getJson(t, `/explorer/cycle/${cycle}`);
      const working = new Set<string>();
      let missed = 0;
      for (const level of levelsOf(cycle)) {
        if (level >= HEAD) continue;
        const included = new Set<string>();
        for (const op of blocks[level + 1].operations[0] ?? [])
          for (const c of op.contents) {
            if ((c.level ?? c.consensus_content?.level) !== level) continue;
            if (c.metadata?.delegate) included.add(c.metadata.delegate);
            for (const m of c.metadata?.committee ?? []) included.add(m.delegate);
          }
        for (const d of included) working.add(d);
        const due = (
          (await rpc(`/chains/main/blocks/${level}/helpers/attestation_rights?level=${level}`)) as Json[]
        ).flatMap((l) => (l.delegates as Json[]).map((d) => d.delegate as string));
        missed += due.filter((d) => !included.has(d)).length;
      }
      expect(got.working_endorsers, `cycle ${cycle} working`).to.equal(working.size);
      expect(got.missed_endorsements, `cycle ${cycle} missed`).to.equal(missed);
      const rows = income.filter((r) => Number(r.cycle) === cycle);
      const rate =
        (rows.reduce((n, r) => n + Number(r.n_slots_endorsed), 0) /
          rows.reduce((n, r) => n + Number(r.n_endorsing_rights || 0), 0)) *
        100;
      expect(got.endorsement_rate, `cycle ${cycle} rate`).to.equal(cycle === open ? null : Number(rate.toFixed(2)));
      expect(got.is_snapshot, `cycle ${cycle} is a snapshot`).to.equal(cycle !== open);
      const behind = cycle - lag >= 0 ? levelsOf(cycle - lag) : [];
      expect(got.snapshot_height, `cycle ${cycle} snapshot`).to.equal(
        cycle - lag >= 0 ? behind[behind.length - 1] : null,
      );
    }
  });

  it('missed round-0 blocks are those whose round-0 holder did not bake them', () => {
    const missed = new Map<string, number>();
    for (const r of rights) {
      if (r.baking_rights === '') continue;
      for (const pos of bitsOf(r.baking_rights)) {
        const level = Number(r.height) + pos;
        if (level > HEAD) continue;
        const b = blocks[level];
        if (
          b.metadata.baker !== r.address ||
          b.header.payload_round > 0 ||
          Number(b.header.fitness[4] ?? '00000000') > 0
        )
          missed.set(`${r.cycle}_${r.address}`, (missed.get(`${r.cycle}_${r.address}`) ?? 0) + 1);
      }
    }
    let checked = 0;
    for (const row of income.filter((r) => r.n_baking_rights !== '')) {
      expect(Number(row.n_blocks_not_baked), `${row.cycle}_${row.address}`).to.equal(
        missed.get(`${row.cycle}_${row.address}`) ?? 0,
      );
      checked++;
    }
    expect(checked).to.be.greaterThan(3);
  });

  it("expected income, luck, performance and contribution from the node's issuance rates, the rights and the stake snapshot", async () => {
    const all = await readTable(t, 'income', [
      'cycle',
      'address',
      'n_baking_rights',
      'n_endorsing_rights',
      'n_blocks_not_baked',
      'n_slots_endorsed',
      'total_income',
      'accusation_loss',
      'expected_income',
      'luck',
      'luck_percent',
      'performance_percent',
      'contribution_percent',
    ]);
    const constants = JSON.parse((await transport.get('/chains/main/blocks/head/context/constants')).body);
    const committee = BigInt(constants.consensus_committee_size);
    let valued = 0;
    let lucky = 0;
    for (let cycle = 1; cycle <= blocks[HEAD].metadata.level_info.cycle; cycle++) {
      const levels = blocks.filter((b) => b.header.level > 0 && b.metadata.level_info.cycle === cycle);
      const start = levels[0].header.level;
      const length = Number(constants.blocks_per_cycle);
      const rows = all.filter((r) => Number(r.cycle) === cycle && r.n_baking_rights !== '');
      // The value is known once the cycle's last window of attestation rights is in.
      if (levels.length <= Math.floor((length - 1) / WINDOW) * WINDOW) {
        for (const r of rows) expect(r.expected_income, `${cycle} ${r.address} open`).to.equal('');
        continue;
      }
      const rates = ((await rpc(`/chains/main/blocks/${start}/context/issuance/expected_issuance`)) as Json[]).find(
        (e) => e.cycle === cycle,
      )!;
      const block = BigInt(rates.baking_reward_fixed_portion) + BigInt(rates.baking_reward_bonus_per_block);
      const attesting = BigInt(rates.attesting_reward_per_block);
      const value = (blocks: bigint, slots: bigint) => blocks * block + (slots * attesting) / committee;
      // Fair share: the baker's baking power over every active baker's at the snapshot behind the cycle.
      const snapshotLevel = start - 1 - Number(constants.consensus_rights_delay) * length;
      const delegates =
        snapshotLevel > 0
          ? ((await rpc(`/chains/main/blocks/${snapshotLevel}/context/delegates?active=true`)) as unknown as string[])
          : [];
      const power = new Map<string, bigint>();
      for (const d of delegates)
        power.set(
          d,
          BigInt(
            ((await rpc(`/chains/main/blocks/${snapshotLevel}/context/delegates/${d}`)) as unknown as Json)
              .baking_power,
          ),
        );
      const total = [...power.values()].reduce((a, b) => a + b, 0n);
      for (const r of rows) {
        const key = `${cycle} ${r.address}`;
        const expected = value(BigInt(r.n_baking_rights), BigInt(r.n_endorsing_rights));
        expect(mutez(r.expected_income), `${key} expected`).to.equal(expected);
        if (power.has(r.address)) {
          const fair = (power.get(r.address)! * value(BigInt(length), BigInt(length) * committee)) / total;
          expect(mutez(r.luck), `${key} luck`).to.equal(expected - fair);
          expect(Number(r.luck_percent), `${key} luck %`).to.equal(
            Number(10000n + ((expected - fair) * 10000n) / fair),
          );
          lucky++;
        }
        const diff = mutez(r.total_income) - mutez(r.accusation_loss) - expected;
        const performance = expected > 0n ? 10000n + (diff * 10000n) / expected : 10000n;
        expect(Number(r.performance_percent), `${key} performance`).to.equal(
          Number(performance < 0n ? 0n : performance),
        );
        const rightsCount = BigInt(r.n_baking_rights) + BigInt(r.n_endorsing_rights);
        const used = BigInt(r.n_baking_rights) - BigInt(r.n_blocks_not_baked) + BigInt(r.n_slots_endorsed);
        const contribution = rightsCount > 0n ? (used * 10000n) / rightsCount : 10000n;
        expect(Number(r.contribution_percent), `${key} contribution`).to.equal(
          Number(contribution > 10000n ? 10000n : contribution),
        );
        valued++;
      }
    }
    expect(valued, 'rows valued').to.be.greaterThan(5);
    expect(lucky, 'rows with luck').to.be.greaterThan(2);
  });

  it("serves a baker's income and rights of a cycle, with JSON errors for bad ids (no snapshot before the first snapshot's cycle)", async () => {
    const row = income.find((r) => mutez(r.baking_income) > 0n)!;
    const got = await getJson(t, `/explorer/bakers/${row.address}/income/${row.cycle}`);
    expect(got.address).to.equal(row.address);
    expect(got.cycle).to.equal(Number(row.cycle));
    expect(tezToMutez(String(got.baking_income))).to.equal(mutez(row.baking_income));
    expect(got.n_blocks_baked).to.equal(Number(row.n_blocks_baked));
    // The SDK's index.Income keys for the snapshot balances.
    expect(got).to.include.keys('own_balance', 'delegated_balance', 'luck_percent', 'expected_income');
    expect(got).to.not.have.any.keys('balance', 'delegated');
    const r = rights.find((x) => x.address === row.address && x.cycle === row.cycle)!;
    expect((await getJson(t, `/explorer/bakers/${row.address}/rights/${row.cycle}`)).blocks_baked).to.equal(
      r.blocks_baked,
    );
    await expectError(t, `/explorer/bakers/tz1notanaddress/income/1`, 400, ErrorCode.RESOURCE_ID_MALFORMED);
    await expectError(t, `/explorer/bakers/${row.address}/income/x1`, 400, ErrorCode.RESOURCE_ID_MALFORMED);
    await expectError(t, `/explorer/bakers/${row.address}/income/999999`, 404, ErrorCode.RESOURCE_NOTFOUND);
    await expectError(t, `/explorer/bakers/${row.address}/snapshot/1`, 404, ErrorCode.RESOURCE_NOTFOUND);
  });

  it('without the baking plugin its tables and routes answer 404', async () => {
    const plugins = discoverPlugins([BUILTIN_PLUGIN_DIR]).filter((p) => p.manifest.name === 'core-chain');
    const light = await startTestInstance({ plugins });
    try {
      for (const table of ['income', 'rights', 'snapshot'])
        expect((await light.get(`/tables/${table}`)).status, table).to.equal(404);
      expect((await light.get(`/explorer/bakers/${income[0].address}/income/1`)).status).to.equal(404);
    } finally {
      await light.close();
    }
  });

  it('a reorg leaves the tables identical to a clean run', async () => {
    const clean = await startBakingInstance(CONFIG);
    try {
      await indexSandbox(clean, chain, OPTIONS);
      const cols = [
        'cycle',
        'address',
        ...MONEY,
        ...COUNTS,
        'end_time',
        'expected_income',
        'luck',
        'luck_percent',
        'performance_percent',
        'contribution_percent',
        'own_stake',
        'n_stakers',
        'staking_balance',
      ];
      const sortKey = (r: CsvRow) => `${r.cycle}_${r.address}`;
      const strip = (rows: CsvRow[]) =>
        rows.map(({ row_id: _, ...rest }) => rest).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
      expect(strip(await readTable(clean, 'income', cols))).to.deep.equal(strip(await readTable(t, 'income', cols)));
      const rcols = [
        'cycle',
        'address',
        'baking_rights',
        'endorsing_rights',
        'blocks_baked',
        'blocks_endorsed',
        'seeds_required',
        'seeds_revealed',
      ];
      expect(strip(await readTable(clean, 'rights', rcols))).to.deep.equal(strip(await readTable(t, 'rights', rcols)));
      // The reorg replaced a cycle's last block (level 40): its snapshot too.
      const scols = [
        'cycle',
        'height',
        'address',
        'baker',
        'is_baker',
        'balance',
        'delegated',
        'n_delegations',
        'active_stake',
      ];
      const snapshots = strip(await readTable(t, 'snapshot', scols));
      expect(snapshots.some((r) => r.height === '40')).to.equal(true);
      expect(strip(await readTable(clean, 'snapshot', scols))).to.deep.equal(snapshots);
    } finally {
      await clean.close();
    }
  });
});
