import { expect } from 'chai';
import { request } from 'node:http';
import { SandboxChain, SandboxRpcTransport, startSandboxServer, type SandboxServer } from '../../framework/sandbox';
import { errorsOf, OpenApiSchemas } from './OpenApiSchemas';

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

/** Reads `count` newline-separated JSON chunks from a streaming GET, then aborts it. */
function readStream(url: string, count: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const out: Record<string, unknown>[] = [];
    let buffer = '';
    const req = request(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          out.push(JSON.parse(buffer.slice(0, nl)));
          buffer = buffer.slice(nl + 1);
          if (out.length === count) {
            req.destroy();
            resolve(out);
            return;
          }
        }
      });
    });
    req.on('error', (e) => (out.length >= count ? undefined : reject(e)));
    req.end();
  });
}

describe('sandbox HTTP node', function () {
  let server: SandboxServer;
  const ushuaia = new OpenApiSchemas('ushuaia-openapi.json');
  const shell = new OpenApiSchemas('rpc-openapi.json');

  before(async function () {
    server = await startSandboxServer({
      port: 0,
      seed: 'http',
      profile: 'tiny',
      historyBlocks: 40,
      blockIntervalMs: 0,
    });
  });
  after(async function () {
    await server.close();
  });

  it('listens on loopback and serves blocks by level, hash, head and head~N', async function () {
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const head = JSON.parse((await get(`${server.url}/chains/main/blocks/head`)).body);
    expect(head.header.level).to.equal(40);
    const byHash = await get(`${server.url}/chains/main/blocks/${head.hash}`);
    expect(JSON.parse(byHash.body).hash).to.equal(head.hash);
    const back = JSON.parse((await get(`${server.url}/chains/main/blocks/head~2/header`)).body);
    expect(back.level).to.equal(38);
    const byLevel = JSON.parse((await get(`${server.url}/chains/main/blocks/38/hash`)).body);
    expect(byLevel).to.equal(back.hash);
  });

  it('serves block sub-resources consistent with the full block', async function () {
    const full = JSON.parse((await get(`${server.url}/chains/main/blocks/30`)).body);
    const header = JSON.parse((await get(`${server.url}/chains/main/blocks/30/header`)).body);
    expect(header).to.deep.equal({ protocol: full.protocol, chain_id: full.chain_id, hash: full.hash, ...full.header });
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/30/metadata`)).body)).to.deep.equal(full.metadata);
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/30/operations`)).body)).to.deep.equal(
      full.operations,
    );
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/30/operations/3`)).body)).to.deep.equal(
      full.operations[3],
    );
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/30/operations/0/0`)).body)).to.deep.equal(
      full.operations[0][0],
    );
    const shellHeader = JSON.parse((await get(`${server.url}/chains/main/blocks/head/header/shell`)).body);
    expect(Object.keys(shellHeader)).to.deep.equal([
      'level',
      'proto',
      'predecessor',
      'timestamp',
      'validation_pass',
      'operations_hash',
      'fitness',
      'context',
    ]);
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/30/protocols`)).body)).to.deep.equal({
      protocol: full.protocol,
      next_protocol: full.protocol,
    });
  });

  it('answers 404 with an empty body, like a node, for unknown paths, blocks and context entries', async function () {
    for (const path of [
      '/nope',
      '/chains/main/blocks/999999',
      '/chains/main/blocks/BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2',
      '/chains/main/blocks/head/operations/7',
      '/chains/main/blocks/head/operations/3/999',
      '/chains/main/blocks/head/context/contracts/KT1MNN3eEAu3nfKq8u814KfMGuwap7qZ7LPv/balance',
      '/chains/main/blocks/head/context/big_maps/99999/exprthxbe6TYgLYLixSvhEXjJH8USdKTdRguWcSF9p3N5BBL9tV4xQ',
      '/chains/main/blocks/head/context/delegates/tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU',
    ]) {
      const res = await get(server.url + path);
      expect(res.status, path).to.equal(404);
      expect(res.body, path).to.equal('');
    }
    expect((await get(`${server.url}/chains/main/blocks/head/context/contracts/notanaddress`)).status).to.equal(400);
  });

  it('node-level RPCs validate against the shell OpenAPI', async function () {
    const cases: [string, string][] = [
      ['/version', '/version'],
      ['/chains/main/chain_id', '/chains/{chain_id}/chain_id'],
      ['/protocols', '/protocols'],
      ['/chains/main/protocols', '/chains/{chain_id}/protocols'],
      ['/chains/main/is_bootstrapped', '/chains/{chain_id}/is_bootstrapped'],
    ];
    for (const [path, spec] of cases) {
      const res = await get(server.url + path);
      expect(res.status, path).to.equal(200);
      const validate = shell.response(spec);
      expect(validate(JSON.parse(res.body)), `${path}: ${errorsOf(validate)}`).to.equal(true);
    }
    expect(JSON.parse((await get(`${server.url}/chains/main/chain_id`)).body)).to.equal(server.chain.identity.chainId);
  });

  it('context and helper RPCs validate against the Ushuaia OpenAPI', async function () {
    const chain = server.chain;
    const baker = chain.book.bakers[0].address;
    const user = chain.book
      .allAddresses()
      .find((a) => a.startsWith('tz1') && !chain.book.baker(a) && chain.book.get(a).delegate !== undefined)!;
    const lb = chain.knownContracts().find((c) => c.role === 'lb_cpmm')!.address;
    const ledger = chain.book.bigMap(0)!;
    const [keyHash] = [...ledger.entries.keys()];
    const cycle = chain.calendar.cycleOf(chain.headLevel);
    const cases: [string, string][] = [
      ['/context/constants', '/context/constants'],
      [`/context/contracts/${user}`, '/context/contracts/{contract_id}'],
      [`/context/contracts/${lb}`, '/context/contracts/{contract_id}'],
      [`/context/contracts/${user}/balance`, '/context/contracts/{contract_id}/balance'],
      [`/context/contracts/${user}/counter`, '/context/contracts/{contract_id}/counter'],
      [`/context/contracts/${user}/delegate`, '/context/contracts/{contract_id}/delegate'],
      [`/context/contracts/${lb}/script`, '/context/contracts/{contract_id}/script'],
      [`/context/contracts/${lb}/storage`, '/context/contracts/{contract_id}/storage'],
      [`/context/big_maps/0/${keyHash}`, '/context/big_maps/{big_map_id}/{script_expr}'],
      [`/context/delegates/${baker}`, '/context/delegates/{pkh}'],
      ...[
        'baking_power',
        'staking_balance',
        'current_frozen_deposits',
        'delegated_contracts',
        'participation',
        'total_unstaked_per_cycle',
        'frozen_deposits_limit',
      ].map((field): [string, string] => [`/context/delegates/${baker}/${field}`, `/context/delegates/{pkh}/${field}`]),
      ['/helpers/baking_power_distribution_for_current_cycle', '/helpers/baking_power_distribution_for_current_cycle'],
      ['/helpers/total_baking_power', '/helpers/total_baking_power'],
      [`/helpers/baking_rights?cycle=${cycle}`, '/helpers/baking_rights'],
      [`/helpers/attestation_rights?cycle=${cycle}`, '/helpers/attestation_rights'],
      ['/helpers/baking_rights', '/helpers/baking_rights'],
    ];
    for (const [path, spec] of cases) {
      const res = await get(`${server.url}/chains/main/blocks/head${path}`);
      expect(res.status, path).to.equal(200);
      const validate = ushuaia.response(spec);
      expect(validate(JSON.parse(res.body)), `${path}: ${errorsOf(validate)}`).to.equal(true);
    }
    const rights = JSON.parse(
      (await get(`${server.url}/chains/main/blocks/head/helpers/attestation_rights?cycle=${cycle}`)).body,
    ) as { level: number }[];
    expect(rights.map((r) => r.level)).to.deep.equal(Array.from({ length: 8 }, (_, i) => cycle * 8 + 1 + i));
    // A block baked in round 0 was baked by the round-0 right holder (picked so the check always runs).
    const level = [12, 11, 13, 10, 14, 9, 15].find((l) => chain.at(l)!.round === 0);
    expect(level, 'a round-0 block near level 12').to.not.equal(undefined);
    const bakingRights = JSON.parse(
      (await get(`${server.url}/chains/main/blocks/head/helpers/baking_rights?level=${level}&max_round=0`)).body,
    ) as { delegate: string }[];
    expect(bakingRights).to.have.length(1);
    expect(bakingRights[0].delegate).to.equal((chain.block(level!)!.metadata as { baker: string }).baker);
  });

  it('streams /monitor/heads/main: the current head, then each new block', async function () {
    const chunks = readStream(`${server.url}/monitor/heads/main`, 3);
    await new Promise((r) => setTimeout(r, 50));
    server.chain.bake(2);
    const heads = await chunks;
    const validate = shell.response('/monitor/heads/{chain_id}');
    for (const h of heads) expect(validate(h), errorsOf(validate)).to.equal(true);
    expect(heads.map((h) => h.level)).to.deep.equal([40, 41, 42]);
    expect(heads[2].predecessor).to.equal(heads[1].hash);
  });

  it('serves the new branch after a reorg, and streams its head', async function () {
    const chunks = readStream(`${server.url}/monitor/heads/main`, 2);
    await new Promise((r) => setTimeout(r, 50));
    const oldHead = server.chain.head.hash;
    const fresh = server.chain.reorg(2);
    const heads = await chunks;
    expect(heads[1].hash).to.equal(fresh[1].hash);
    expect(JSON.parse((await get(`${server.url}/chains/main/blocks/head/hash`)).body)).to.equal(fresh[1].hash);
    expect((await get(`${server.url}/chains/main/blocks/${oldHead}`)).status).to.equal(404);
    const h = JSON.parse((await get(`${server.url}/chains/main/blocks/head~1/header`)).body);
    expect(h.hash).to.equal(fresh[0].hash);
    expect(h.predecessor).to.equal(server.chain.at(fresh[0].level - 1)!.hash);
  });

  it('bakes live blocks at the configured interval', async function () {
    const live = await startSandboxServer({
      port: 0,
      seed: 'live',
      profile: 'tiny',
      historyBlocks: 5,
      blockIntervalMs: 20,
    });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(live.chain.headLevel).to.be.greaterThan(6);
    } finally {
      await live.close();
    }
  });
});

describe('sandbox in-process transport', function () {
  it('answers like the HTTP node and streams heads until aborted', async function () {
    const chain = new SandboxChain({ seed: 'transport', profile: 'tiny' });
    chain.bake(10);
    const t = new SandboxRpcTransport(chain);
    const res = await t.get('/chains/main/blocks/head/header');
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body).level).to.equal(10);
    expect((await t.get('/nope')).status).to.equal(404);
    const controller = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const h of t.monitorHeads(controller.signal)) {
        seen.push((h as { level: number }).level);
        if (seen.length === 3) controller.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 10));
    chain.bake(2);
    await reading;
    expect(seen).to.deep.equal([10, 11, 12]);
  });
});

describe('sandbox history ending at a given time', function () {
  it('picks the genesis time so that the last history block is at historyEndsAt, and stays deterministic', async function () {
    const server = await startSandboxServer({
      port: 0,
      seed: 'clock',
      profile: 'tiny',
      historyBlocks: 60,
      blockIntervalMs: 0,
      historyEndsAt: new Date('2031-05-04T03:02:01.750Z'),
    });
    try {
      const chain = server.chain;
      expect(chain.head.timestamp).to.equal('2031-05-04T03:02:01Z');
      // Round-1 blocks come later than the block delay, so the history is longer than 60 block delays.
      expect(Array.from({ length: 60 }, (_, i) => chain.at(i + 1)!.round).some((r) => r > 0)).to.equal(true);
      const replica = new SandboxChain({ seed: 'clock', profile: 'tiny', genesisTime: chain.at(0)!.timestamp });
      replica.bake(60);
      expect(replica.head.hash).to.equal(chain.head.hash);
    } finally {
      await server.close();
    }
    const both = await startSandboxServer({
      port: 0,
      seed: 1,
      genesisTime: '2030-01-01T00:00:00Z',
      historyEndsAt: new Date(),
    }).catch((e: unknown) => e);
    expect(both)
      .to.be.instanceOf(Error)
      .with.property('message')
      .that.matches(/either/);
  });
});
