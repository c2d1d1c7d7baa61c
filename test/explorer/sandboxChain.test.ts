import { b58Encode, PrefixV2 } from '@taquito/utils';
import { expect } from 'chai';
import { BUILTIN_PLUGIN_DIR } from '../../framework/app/TzidxApp';
import { discoverPlugins } from '../../framework/plugins/PluginDiscovery';
import { SandboxChain, SandboxRpcTransport } from '../../framework/sandbox';
import type { Json } from '../chain/support/Json';
import { indexSandbox } from '../support/IndexHarness';
import { BACKEND } from '../support/TestDatabase';
import { startTestInstance, TestInstance } from '../support/TestInstance';
import { expectError, expectNotModified, getJson, Obj, readAllPages } from './support/api';
import { checkOperation } from './support/checkOperation';
import { blockCycle, blockRound, expectedGroup, tezToMutezNumber } from './support/rawOperations';

const HEAD = 84;
const REORG_DEPTH = 3;

/** Every manager content and internal operation of the chain with its block, in chain order. */
interface RawOp {
  op: Json;
  result: Json | undefined;
  outer: Json;
  hash: string;
  block: Json;
}

function rawOps(blocks: readonly Json[]): RawOp[] {
  const out: RawOp[] = [];
  for (const block of blocks)
    for (const group of (block.operations ?? []).flat())
      for (const content of group.contents ?? []) {
        if (content.fee === undefined) continue;
        out.push({ op: content, result: content.metadata?.operation_result, outer: content, hash: group.hash, block });
        for (const i of content.metadata?.internal_operation_results ?? [])
          out.push({ op: i, result: i.result, outer: content, hash: group.hash, block });
      }
  return out;
}

const applied = (r: RawOp): boolean => r.result?.status === 'applied';

/** The argument type of a named entrypoint: the `or` branch annotated with its name. */
function entrypointArg(parameterType: Json, name: string): Json | undefined {
  if (parameterType?.annots?.includes(`%${name}`)) return parameterType;
  if (parameterType?.prim !== 'or') return undefined;
  return entrypointArg(parameterType.args[0], name) ?? entrypointArg(parameterType.args[1], name);
}

/** Leaves of a parameter's `or` tree, left to right, by field annotation. */
function entrypointNames(parameterType: Json): string[] {
  if (parameterType.prim !== 'or') return [parameterType.annots?.[0]?.slice(1) ?? 'default'];
  return [...entrypointNames(parameterType.args[0]), ...entrypointNames(parameterType.args[1])];
}

const SCALARS: Record<string, string> = { string: 'string', bytes: 'bytes', int: 'int', nat: 'int', mutez: 'int' };

describe(`explorer: a sandbox chain with a reorg (${BACKEND})`, function () {
  this.timeout(600_000);
  const chain = new SandboxChain({ seed: 'explorer', profile: 'tiny' });
  const transport = new SandboxRpcTransport(chain);
  let t: TestInstance;
  let blocks: Json[];
  let ops: RawOp[];
  const orphans: Json[] = [];

  const node = async (path: string): Promise<unknown> => {
    const res = await transport.get(`/chains/main/blocks/head/context/contracts/${path}`);
    return res.status === 200 ? JSON.parse(res.body) : undefined;
  };

  before(async function () {
    chain.bakeTo(HEAD);
    t = await startTestInstance({ plugins: discoverPlugins([BUILTIN_PLUGIN_DIR]) });
    await indexSandbox(t, chain);
    for (let level = HEAD - REORG_DEPTH + 1; level <= HEAD; level++)
      orphans.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Json);
    chain.reorg(REORG_DEPTH);
    chain.bake(2);
    await indexSandbox(t, chain);
    blocks = [];
    for (let level = 0; level <= chain.headLevel; level++)
      blocks.push(JSON.parse(chain.blockJson(chain.at(level)!)) as Json);
    ops = rawOps(blocks);
  });
  after(async () => t?.close());

  const head = (): Json => blocks[blocks.length - 1];

  it('blocks: heights and head name the main chain, hashes may name orphans, which list no operations', async function () {
    for (const orphan of orphans) {
      const level: number = orphan.header.level;
      const byHash = await getJson(t, `/explorer/block/${orphan.hash}`);
      expect(byHash).to.include({
        hash: orphan.hash,
        height: level,
        is_orphan: true,
        predecessor: orphan.header.predecessor,
      });
      const byHeight = await getJson(t, `/explorer/block/${level}`);
      expect(byHeight).to.include({ hash: blocks[level].hash, is_orphan: false });
      expect(await getJson(t, `/explorer/block/${orphan.hash}/operations`)).to.deep.equal([]);
    }
    const fork = orphans[0].header.level - 1;
    expect((await getJson(t, `/explorer/block/${fork}`)).successor).to.equal(blocks[fork + 1].hash);
    const top = await getJson(t, '/explorer/block/head');
    expect(top).to.include({
      hash: head().hash,
      height: chain.headLevel,
      successor: null,
      round: blockRound(head()),
      cycle: blockCycle(head()),
    });
  });

  it('/explorer/op/{hash} of every operation equals the node JSON: roles, scripts, constants, revelations, denunciations', async function () {
    const delegates = new Map<string, string | undefined>();
    const previous = new Map<string, string | undefined>();
    for (const r of ops) {
      if (r.op.kind === 'delegation')
        previous.set(`${r.hash}:${r.op.counter ?? r.op.nonce}`, delegates.get(r.op.source));
      if (!applied(r)) continue;
      if (r.op.kind === 'delegation') delegates.set(r.op.source, r.op.delegate);
      if (r.op.kind === 'origination') delegates.set(r.result!.originated_contracts[0], r.op.delegate);
    }
    const seen = new Set<string>();
    for (const block of blocks) {
      for (const group of (block.operations ?? []).flat()) {
        const expected = expectedGroup(group, block);
        const objects = await getJson<Obj[]>(t, `/explorer/op/${group.hash}?prim=1`);
        expect(
          objects.map((o) => o.type),
          group.hash,
        ).to.deep.equal(expected.map((e) => e.type));
        objects.forEach((o, i) => {
          checkOperation(o, expected[i], block, chain.headLevel);
          seen.add(o.type);
          if (o.events) seen.add('events');
          if (o.ticket_updates) seen.add('ticket_updates');
          if (o.type === 'nonce_revelation')
            expect(o.creator, o.hash).to.equal(blocks[Number(o.data.split(',')[0])].metadata.baker);
        });
        for (const o of objects.filter((x) => x.type === 'delegation')) {
          const content = (group.contents as Json[]).find(
            (c) => c.kind === 'delegation' && Number(c.counter) === o.counter,
          )!;
          expect(o.previous_baker, o.hash).to.equal(previous.get(`${group.hash}:${content.counter}`));
        }
      }
    }
    // The chain exercises the type-specific fields checked above.
    for (const type of [
      'origination',
      'register_constant',
      'nonce_revelation',
      'vdf_revelation',
      'double_baking',
      'delegation',
      'events',
      'ticket_updates',
    ])
      expect(seen, type).to.include(type);
    // Contract events are listed under their operation only (`events`), as in the original.
    expect(seen).to.not.include('event');
    expect(previous.size).to.be.greaterThan(0);
    expect(
      [...previous.values()].some((p) => p !== undefined),
      'a re-delegation',
    ).to.equal(true);
  });

  it('accounts: balances, counters and keys equal the node; originated contracts; unknown and malformed addresses', async function () {
    const addresses = (
      (await getJson<unknown[][]>(t, '/tables/account?columns=address&limit=50000')) as string[][]
    ).map((r) => r[0]);
    expect(addresses.length).to.be.greaterThan(20);
    const revealed = new Set(ops.filter((r) => applied(r) && r.op.kind === 'reveal').map((r) => r.op.source as string));
    expect(revealed.size).to.be.greaterThan(0);
    let countersChecked = 0;
    for (const address of addresses) {
      const account = await getJson(t, `/explorer/account/${address}`);
      expect(account.address).to.equal(address);
      expect(tezToMutezNumber(account.spendable_balance), address).to.equal(
        BigInt((await node(`${address}/balance`)) as string),
      );
      if (address.startsWith('KT1')) continue;
      // Keys revealed at genesis appear in no receipt: only reveals in the chain are checked.
      if (revealed.has(address))
        expect(account).to.include({ is_revealed: true, pubkey: await node(`${address}/manager_key`) });
      const used = ops.some((r) => r.op.source === address && r.op === r.outer);
      if (used) {
        expect(account.counter, address).to.equal(Number((await node(`${address}/counter`)) as string));
        countersChecked++;
      }
    }
    expect(countersChecked, 'accounts whose counter was checked').to.be.greaterThan(3);
    const originations = ops.filter((r) => applied(r) && r.op.kind === 'origination');
    const byCreator = new Map<string, string[]>();
    for (const r of originations)
      byCreator.set(r.op.source, [...(byCreator.get(r.op.source) ?? []), r.result!.originated_contracts[0]]);
    for (const [creator, contracts] of byCreator) {
      const listed = await readAllPages(t, `/explorer/account/${creator}/contracts`, 'asc', 'cursor', 2);
      expect(
        listed.map((c) => c.address),
        creator,
      ).to.deep.equal(contracts);
      expect(
        (await readAllPages(t, `/explorer/account/${creator}/contracts`, 'desc', 'offset', 3)).map((c) => c.address),
      ).to.deep.equal([...contracts].reverse());
      await expectError(t, `/explorer/account/${creator}/contracts.csv`, 400, 1001);
    }
    expect((await getJson(t, `/explorer/account/${addresses[0]}?meta=1`)).metadata).to.deep.equal({});
    await expectError(t, '/explorer/account/tz1notanaddress', 400, 1301);
    await expectError(
      t,
      `/explorer/account/${b58Encode(new Uint8Array(20).fill(7), PrefixV2.Ed25519PublicKeyHash)}`,
      404,
      1305,
    );
    await expectError(
      t,
      `/explorer/account/${b58Encode(new Uint8Array(20).fill(7), PrefixV2.Ed25519PublicKeyHash)}/operations`,
      404,
      1305,
    );
    await expectError(t, `/explorer/account/${addresses[0]}.csv`, 400, 1001);
    await expectError(t, `/explorer/account/${addresses[0]}/operations.csv`, 400, 1001);
    await expectNotModified(t, `/explorer/account/${addresses[0]}`);
    await expectNotModified(t, `/explorer/account/${addresses[0]}/operations`);
    await expectNotModified(t, `/explorer/account/${[...byCreator.keys()][0]}/contracts`);
  });

  it('account operations: newest first, every role, since/block bounds, type filter, cursor and offset pages', async function () {
    const counts = new Map<string, number>();
    for (const r of ops) if (r.op === r.outer) counts.set(r.op.source, (counts.get(r.op.source) ?? 0) + 1);
    const address = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const path = `/explorer/account/${address}/operations`;
    const involved = new Set<number>();
    for (const role of ['sender', 'receiver', 'creator', 'baker']) {
      for (const [id] of await getJson<number[][]>(t, `/tables/op?columns=row_id&${role}=${address}&limit=50000`))
        involved.add(id);
    }
    const all = await readAllPages(t, path, 'desc', 'cursor', 25);
    expect(all.map((o) => o.row_id)).to.deep.equal([...involved].sort((a, b) => b - a));
    const signed = new Set(ops.filter((r) => r.op === r.outer && r.op.source === address).map((r) => r.hash));
    expect(signed.size).to.be.greaterThan(3);
    for (const hash of signed)
      expect(
        all.some((o) => o.hash === hash && o.sender === address),
        hash,
      ).to.equal(true);
    const first = await getJson<Obj[]>(t, path);
    expect(first.map((o) => o.row_id)).to.deep.equal(all.slice(0, 20).map((o) => o.row_id));
    expect((await readAllPages(t, path, 'asc', 'cursor', 30)).map((o) => o.row_id)).to.deep.equal(
      all.map((o) => o.row_id).reverse(),
    );
    expect((await readAllPages(t, path, 'desc', 'offset', 40)).map((o) => o.row_id)).to.deep.equal(
      all.map((o) => o.row_id),
    );
    const since = 20;
    const upTo = 60;
    const bounded = await getJson<Obj[]>(t, `${path}?since=${since}&block=${blocks[upTo].hash}&limit=500`);
    expect(bounded.map((o) => o.row_id)).to.deep.equal(
      all
        .filter((o) => o.height > since && o.height <= upTo)
        .slice(0, 500)
        .map((o) => o.row_id),
    );
    const transactions = await getJson<Obj[]>(t, `${path}?type=transaction&limit=500`);
    expect(transactions.map((o) => o.row_id)).to.deep.equal(
      all.filter((o) => o.type === 'transaction').map((o) => o.row_id),
    );
    await expectError(t, `${path}?since=Bxyz`, 400, 1005);
    await expectError(t, `${path}?block=${b58Encode(new Uint8Array(32), PrefixV2.BlockHash)}`, 404, 1305);
    await expectError(t, `${path}?order=sideways`, 400, 1005);
  });

  it('contracts: object, script and storage equal the node; calls in chain order with typed arguments; entrypoint filters', async function () {
    const originations = ops.filter((r) => applied(r) && r.op.kind === 'origination');
    expect(originations.length).to.be.greaterThan(2);
    let typedCalls = 0;
    let lastCallsChecked = 0;
    for (const r of originations) {
      const address: string = r.result!.originated_contracts[0];
      const contract = await getJson(t, `/explorer/contract/${address}`);
      expect(contract).to.include({ address, creator: r.op.source, first_seen: r.block.header.level });
      // The code, parameter and storage types come without prim=1; prim=1 only adds the types' Micheline.
      const script = await getJson(t, `/explorer/contract/${address}/script`);
      expect(script.script, address).to.deep.equal({ code: r.op.script.code, storage: r.op.script.storage });
      expect((await getJson(t, `/explorer/contract/${address}/script?prim=1`)).script).to.deep.equal(script.script);
      const parameterType = (r.op.script.code as Json[]).find((s) => s.prim === 'parameter')!.args[0];
      expect(Object.keys(script.entrypoints)).to.deep.equal(entrypointNames(parameterType));
      const storage = await getJson(t, `/explorer/contract/${address}/storage?prim=1`);
      expect(storage.prim, address).to.deep.equal(await node(`${address}/storage`));
      const calls = ops.filter((c) => c.op.kind === 'transaction' && c.op.destination === address);
      const listed = await readAllPages(t, `/explorer/contract/${address}/calls?prim=1`, 'asc', 'cursor', 7);
      expect(listed.map((o) => [o.hash, o.parameters.entrypoint, o.status])).to.deep.equal(
        calls.map((c) => [c.hash, c.op.parameters?.entrypoint ?? 'default', c.result?.status]),
      );
      expect(contract.n_calls_in).to.equal(calls.filter(applied).length);
      expect(contract.n_calls_failed).to.equal(calls.filter((c) => !applied(c)).length);
      const backwards = await readAllPages(t, `/explorer/contract/${address}/calls`, 'desc', 'offset', 6);
      expect(backwards.map((o) => o.row_id)).to.deep.equal(listed.map((o) => o.row_id).reverse());
      listed.forEach((o, i) => {
        const arg = entrypointArg(parameterType, o.parameters.entrypoint);
        if (arg?.prim !== 'pair' || arg.args.length !== 2 || !arg.args.every((a: Json) => SCALARS[a.prim] && a.annots))
          return;
        const value = calls[i].op.parameters.value;
        const expected = Object.fromEntries(
          arg.args.map((a: Json, k: number) => [a.annots[0].slice(1), value.args[k][SCALARS[a.prim]]]),
        );
        expect(o.parameters.value, o.hash).to.deep.equal(expected);
        typedCalls++;
      });
      // Every applied call's storage, older ones from the storage history; and the storage as of each of their blocks.
      const withStorage = ops.filter(
        (c) =>
          applied(c) &&
          (c.op.destination === address || c.result?.originated_contracts?.includes(address)) &&
          c.result?.storage !== undefined,
      );
      for (const c of withStorage.filter((x) => x.op.kind === 'transaction')) {
        const group = await getJson<Obj[]>(t, `/explorer/op/${c.hash}?storage=1&prim=1`);
        const stored = group
          .filter((o) => o.receiver === address && o.is_contract && o.is_success)
          .map((o) => o.storage.prim);
        expect(stored, c.hash).to.deep.include(c.result!.storage);
      }
      for (const level of [...new Set(withStorage.map((c) => c.block.header.level as number))]) {
        const after = withStorage.filter((c) => c.block.header.level <= level).pop()!;
        expect(
          (await getJson(t, `/explorer/contract/${address}/storage?block=${level}&prim=1`)).prim,
          `${address} at ${level}`,
        ).to.deep.equal(after.result!.storage);
      }
      const last = [...calls].reverse().find(applied);
      if (last) {
        lastCallsChecked++;
        const group = await getJson<Obj[]>(t, `/explorer/op/${last.hash}?storage=1&prim=1`);
        // The group's last applied call to the contract: a contract may call itself after the outer call.
        const call = group.filter((o) => o.receiver === address && o.is_contract && o.is_success).pop()!;
        expect(call.parameters.entrypoint, last.hash).to.equal(last.op.parameters?.entrypoint ?? 'default');
        expect(call.storage.prim, last.hash).to.deep.equal(last.result!.storage);
        const entrypoint: string = last.op.parameters?.entrypoint ?? 'default';
        const filtered = await getJson<Obj[]>(
          t,
          `/explorer/contract/${address}/calls?entrypoint=${entrypoint}&limit=500`,
        );
        expect(filtered.map((o) => o.hash)).to.deep.equal(
          calls.filter((c) => (c.op.parameters?.entrypoint ?? 'default') === entrypoint).map((c) => c.hash),
        );
      }
      await expectError(t, `/explorer/contract/${address}/calls?entrypoint=no_such_entrypoint`, 400, 1301);
    }
    expect(typedCalls, 'calls with a record argument').to.be.greaterThan(0);
    expect(lastCallsChecked, 'contracts whose last call was checked').to.be.greaterThan(0);
    const some = originations[0].result!.originated_contracts[0];
    for (const suffix of ['', '/calls', '/script', '/storage'])
      await expectError(t, `/explorer/contract/KT1nope${suffix}`, 400, 1301);
    await expectError(
      t,
      `/explorer/contract/${b58Encode(new Uint8Array(20).fill(7), PrefixV2.ContractHash)}`,
      404,
      1305,
    );
    await expectError(t, `/explorer/contract/${originations[0].op.source}`, 404, 1305);
    const born = originations[0].block.header.level as number;
    await expectError(t, `/explorer/contract/${some}/storage?block=${born - 1}`, 404, 1305);
    await expectError(t, `/explorer/contract/${some}/storage?block=${chain.headLevel + 5}`, 404, 1305);
    await expectError(t, `/explorer/contract/${some}/storage?block=B0nope`, 400, 1005);
    for (const suffix of ['', '/calls', '/script', '/storage']) {
      await expectError(t, `/explorer/contract/${some}${suffix}.csv`, 400, 1001);
      await expectNotModified(t, `/explorer/contract/${some}${suffix}`);
    }
  });

  it('constants: value, creator and height of every registration', async function () {
    const registrations = ops.filter((r) => applied(r) && r.op.kind === 'register_global_constant');
    expect(registrations.length).to.be.greaterThan(0);
    for (const r of registrations) {
      const constant = await getJson(t, `/explorer/constant/${r.result!.global_address}`);
      expect(constant).to.deep.include({
        address: r.result!.global_address,
        creator: r.op.source,
        height: r.block.header.level,
        time: r.block.header.timestamp,
      });
      expect(constant.value).to.deep.equal(r.op.value);
    }
    const address = registrations[0].result!.global_address;
    await expectError(t, '/explorer/constant/exprnope', 400, 1301);
    await expectError(t, `/explorer/constant/${b58Encode(new Uint8Array(32), PrefixV2.ScriptExpr)}`, 404, 1305);
    await expectError(t, `/explorer/constant/${address}.csv`, 400, 1001);
    await expectNotModified(t, `/explorer/constant/${address}`);
  });

  it('cycles: heights, times, rounds, bakers and denunciations of the blocks in each cycle', async function () {
    // Genesis has no cycle in its receipt: cycles from 1 on are compared.
    const byCycle = new Map<number, Json[]>();
    for (const b of blocks.slice(1))
      if (blockCycle(b) > 0) byCycle.set(blockCycle(b), [...(byCycle.get(blockCycle(b)) ?? []), b]);
    const last = blockCycle(head());
    let revelations = 0;
    for (const [cycle, members] of byCycle) {
      const levels = members.map((b) => b.header.level as number);
      const complete = cycle < last;
      const object = await getJson(t, `/explorer/cycle/${cycle}`);
      expect(object).to.include({
        cycle,
        start_height: Math.min(...levels),
        n_blocks: members.length,
        is_complete: complete,
        is_active: cycle === last,
      });
      // The planned end, progress and seed rate from the node's constants at the cycle's first block.
      const start = Math.min(...levels);
      const constants = JSON.parse((await transport.get(`/chains/main/blocks/${start}/context/constants`)).body);
      const perCycle = Number(constants.blocks_per_cycle);
      const plannedEnd = start + perCycle - 1;
      expect(object.end_height).to.equal(complete ? Math.max(...levels) : plannedEnd);
      const produced = complete ? perCycle : head().header.level - start + 1;
      expect(object.progress).to.equal(Math.round((produced * 10000) / perCycle) / 100);
      if (!complete) {
        const due =
          Date.parse(head().header.timestamp) +
          (plannedEnd - head().header.level) * Number(constants.minimal_block_delay) * 1000;
        expect(Date.parse(object.end_time)).to.equal(due);
      }
      expect(object.working_bakers).to.equal(new Set(members.map((b) => b.metadata.proposer)).size);
      const rounds = members.map(blockRound);
      expect(object.missed_rounds).to.equal(rounds.reduce((a, b) => a + b, 0));
      expect(object.round_max).to.equal(Math.max(...rounds));
      const solvetimes = members
        .filter((b) => b.header.level > 0)
        .map((b) => (Date.parse(b.header.timestamp) - Date.parse(blocks[b.header.level - 1].header.timestamp)) / 1000);
      if (solvetimes.length > 0)
        expect([object.solvetime_min, object.solvetime_max]).to.deep.equal([
          Math.min(...solvetimes),
          Math.max(...solvetimes),
        ]);
      const kinds = members.flatMap((b) =>
        (b.operations ?? []).flat().flatMap((g: Json) => g.contents.map((c: Json) => c.kind)),
      );
      const revealed = kinds.filter((k) => k === 'seed_nonce_revelation').length;
      revelations += revealed;
      expect(object.seed_rate).to.equal(
        Math.round((revealed * 10000) / Math.floor(perCycle / Number(constants.blocks_per_commitment))) / 100,
      );
      expect(object.n_double_baking).to.equal(kinds.filter((k) => k === 'double_baking_evidence').length);
      expect(object.n_double_endorsement).to.equal(
        kinds.filter((k) =>
          /^double_(consensus_operation|attestation|preattestation|endorsement|preendorsement)_evidence$/.test(k),
        ).length,
      );
    }
    expect(revelations, 'the chain reveals seed nonces').to.be.greaterThan(0);
    // Nested cycles: the one whose snapshot drew this cycle's rights, consensus_rights_delay + 1 before
    // (the node's constants), and the one this cycle's snapshot draws, as far after; each as its own
    // object without nested cycles, absent when not indexed.
    const lag =
      Number(
        JSON.parse((await transport.get('/chains/main/blocks/head/context/constants')).body).consensus_rights_delay,
      ) + 1;
    const flat = async (cycle: number): Promise<Json | undefined> => {
      const res = await t.get(`/explorer/cycle/${cycle}`);
      if (res.status === 404) return undefined;
      const { snapshot_cycle: _s, follower_cycle: _f, ...rest } = (await res.json()) as Json;
      return rest;
    };
    const nested = { snapshot: 0, follower: 0 };
    for (let cycle = 0; cycle <= last; cycle++) {
      const object = await getJson(t, `/explorer/cycle/${cycle}`);
      for (const [key, other] of [
        ['snapshot_cycle', cycle - lag],
        ['follower_cycle', cycle + lag],
      ] as const) {
        const expected = other < 0 ? undefined : await flat(other);
        expect(object[key], `cycle ${cycle} ${key}`).to.deep.equal(expected);
        if (expected === undefined) continue;
        expect(object[key]).to.not.have.any.keys('snapshot_cycle', 'follower_cycle');
        nested[key === 'snapshot_cycle' ? 'snapshot' : 'follower']++;
      }
    }
    expect(nested.snapshot, 'cycles with a snapshot cycle').to.be.greaterThan(2);
    expect(nested.follower, 'cycles with a follower cycle').to.be.greaterThan(2);
    expect((await getJson(t, '/explorer/cycle/head')).cycle).to.equal(last);
    await expectError(t, '/explorer/cycle/x', 400, 1301);
    await expectError(t, `/explorer/cycle/${last + 1}`, 404, 1305);
    await expectError(t, '/explorer/cycle/1.csv', 400, 1001);
    await expectNotModified(t, '/explorer/cycle/1');
  });

  it('tip, protocols and config describe the indexed chain', async function () {
    const tip = await getJson(t, '/explorer/tip');
    expect(tip).to.include({
      block_hash: head().hash,
      height: chain.headLevel,
      timestamp: head().header.timestamp,
      cycle: blockCycle(head()),
      protocol: head().protocol,
    });
    expect(tip).to.include({ chain_id: head().chain_id, genesis_time: blocks[0].header.timestamp });
    expect(tip.supply.height).to.equal(chain.headLevel);
    // The whole chain lies within the last 30 days: every account was created in it.
    expect(tip.new_accounts_30d).to.equal(
      (await getJson<unknown[]>(t, '/tables/account?columns=row_id&limit=50000')).length,
    );
    expect(tip.status).to.include({ indexed: chain.headLevel });
    const protocols = await getJson<Obj[]>(t, '/explorer/protocols');
    const expected: Obj[] = [];
    for (const b of blocks) {
      const current = expected[expected.length - 1];
      if (current?.protocol === b.protocol) current.end_height = b.header.level;
      else expected.push({ protocol: b.protocol, start_height: b.header.level, end_height: b.header.level });
    }
    expected[expected.length - 1].end_height = -1;
    expect(
      protocols.map((p) => ({ protocol: p.protocol, start_height: p.start_height, end_height: p.end_height })),
    ).to.deep.equal(expected);
    for (const id of ['head', '0', String(chain.headLevel - 1), blocks[5].hash]) {
      const config = await getJson(t, `/explorer/config/${id}`);
      const block = id === 'head' ? head() : id.startsWith('B') ? blocks[5] : blocks[Number(id)];
      const range = expected.find((p) => p.protocol === block.protocol)!;
      expect(config).to.include({
        protocol: block.protocol,
        start_height: range.start_height,
        end_height: range.end_height,
        chain_id: head().chain_id,
        decimals: 6,
      });
      const answer = await transport.get(`/chains/main/blocks/${block.header.level}/context/constants`);
      if (answer.status === 404) {
        // The genesis block's protocol has no constants.
        expect(config).to.include({ blocks_per_cycle: null, minimal_stake: null });
        continue;
      }
      const constants = JSON.parse(answer.body);
      expect(config).to.include({
        blocks_per_cycle: constants.blocks_per_cycle,
        preserved_cycles: constants.preserved_cycles ?? constants.consensus_rights_delay,
        minimal_block_delay: Number(constants.minimal_block_delay),
        delay_increment_per_round: Number(constants.delay_increment_per_round),
        minimal_stake: Number(constants.minimal_stake) / 1e6,
      });
    }
    // Read once per protocol, although the chain was indexed in two runs.
    expect(await getJson(t, '/tables/protocol?columns=protocol,height')).to.deep.equal([[blocks[1].protocol, 1]]);
    await expectError(t, '/explorer/config/Bnope', 400, 1301);
    await expectError(t, `/explorer/config/${chain.headLevel + 1}`, 404, 1305);
    for (const path of ['/explorer/tip', '/explorer/protocols', '/explorer/config/head']) {
      await expectError(t, `${path}.csv`, 400, 1001);
      await expectNotModified(t, path);
    }
  });
});
