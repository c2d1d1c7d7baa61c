import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveProfile, type SandboxProfile, type SandboxProfileName } from './profiles';
import { LiveBaker } from './LiveBaker';
import { SandboxChain } from './SandboxChain';
import { SandboxNode } from './SandboxNode';
import { SandboxStateFile } from './SandboxState';

export interface SandboxServerOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  seed: string | number;
  profile?: SandboxProfileName | SandboxProfile;
  /** Blocks built before serving; defaults to the profile's history length. */
  historyBlocks?: number;
  /** Live baking interval; defaults to the profile's, 0 disables live baking. */
  blockIntervalMs?: number;
  /** Probability per live block of a reorg, and its maximum depth (profile defaults). */
  reorgRate?: number;
  reorgDepth?: number;
  /** Timestamp of the genesis block (ISO 8601); the chain's default when neither this nor `historyEndsAt` is set. */
  genesisTime?: string;
  /** Instead of `genesisTime`: the genesis time is chosen so that the last history block is at this time. */
  historyEndsAt?: Date;
  /**
   * A file that keeps the chain across restarts (SandboxState): when it holds a chain of the same
   * seed, profile, history and reorg settings, that chain is rebuilt (its genesis time, then its live
   * steps replayed) and continued instead of a new one; it is rewritten after every live step.
   */
  stateFile?: string;
  /** Live steps are taken at once until the head is this recent (at most the history's length of them). */
  catchUpTo?: Date;
}

export interface SandboxServer {
  url: string;
  chain: SandboxChain;
  /** One live step now (a block, or now and then a reorg), as the timer takes them; tests step by hand. */
  step(): void;
  close(): Promise<void>;
}

/**
 * Serves a SandboxChain over HTTP on loopback with the node's RPC paths, streams `/monitor/heads/main`
 * (one JSON header per line, chunked), and bakes live blocks with occasional reorgs; with a state file,
 * a restarted server serves the same chain and goes on with it.
 */
export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const { chain, baker, save } = liveChain(options);
  const node = new SandboxNode(chain);
  const streams = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && new URL(path, 'http://sandbox').pathname === '/monitor/heads/main') {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.write(`${JSON.stringify(node.monitorHead(chain.head))}\n`);
      streams.add(res);
      const off = chain.onHead((e) => {
        const block = chain.resolve(e.hash);
        if (block) res.write(`${JSON.stringify(node.monitorHead(block))}\n`);
      });
      res.on('close', () => {
        off();
        streams.delete(res);
      });
      return;
    }
    let answer;
    try {
      answer = node.handle(req.method ?? 'GET', path);
    } catch (e) {
      // A sandbox bug must not take the server down: answer like a node's internal error.
      answer = {
        status: 500,
        body: JSON.stringify([{ kind: 'temporary', id: 'sandbox.internal_error', message: (e as Error).message }]),
      };
    }
    res.writeHead(answer.status, answer.body ? { 'content-type': 'application/json' } : {});
    res.end(answer.body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });

  const interval = options.blockIntervalMs ?? chain.profile.blockIntervalMs;
  const step = (): void => {
    baker.tick();
    save();
  };
  const timer =
    interval > 0
      ? setInterval(() => {
          try {
            step();
          } catch (e) {
            // Stop baking but keep serving the chain built so far; the error says why the head stopped.
            clearInterval(timer);
            process.emitWarning(`sandbox: live baking stopped at level ${chain.headLevel}: ${(e as Error).message}`);
          }
        }, interval)
      : undefined;

  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    chain,
    step,
    close: async () => {
      if (timer) clearInterval(timer);
      for (const res of streams) res.end();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/**
 * The chain to serve and its live baker: a new chain, or the one the state file keeps, replayed to its
 * last step and then stepped until its head is as recent as `catchUpTo`; `save` records the steps.
 */
function liveChain(options: SandboxServerOptions): { chain: SandboxChain; baker: LiveBaker; save(): void } {
  const profile = resolveProfile(options.profile);
  const history = options.historyBlocks ?? profile.historyBlocks;
  if (options.genesisTime !== undefined && options.historyEndsAt !== undefined) {
    throw new Error('give either genesisTime or historyEndsAt, not both');
  }
  const key = {
    seed: String(options.seed),
    profile: profile.name,
    historyBlocks: history,
    reorgRate: options.reorgRate ?? profile.reorgRate,
    reorgDepth: options.reorgDepth ?? profile.reorgDepth,
  };
  const file = options.stateFile === undefined ? undefined : new SandboxStateFile(options.stateFile);
  const stored = file?.read(key);
  const genesisTime =
    stored?.genesisTime ??
    (options.historyEndsAt
      ? SandboxChain.genesisTimeEndingAt(options.seed, profile, history, options.historyEndsAt)
      : options.genesisTime);
  const maxReorgDepth = Math.max(64, key.reorgDepth);
  const chain = new SandboxChain({ seed: options.seed, profile, genesisTime, maxReorgDepth });
  chain.bake(history);
  const baker = new LiveBaker(chain, key.reorgRate, key.reorgDepth);
  for (let i = 0; i < (stored?.steps ?? 0); i++) baker.tick();
  const until = options.catchUpTo?.getTime() ?? -Infinity;
  const due = (): boolean => Date.parse(chain.head.timestamp) + profile.minimalBlockDelay * 1000 <= until;
  for (let i = 0; i < history && due(); i++) baker.tick();
  const save = (): void => file?.write({ ...key, genesisTime: chain.at(0)!.timestamp, steps: baker.steps });
  save();
  return { chain, baker, save };
}
