import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AccountBook } from './AccountBook';
import type { BlockContext } from './BlockContext';
import type { ContractModel } from './contracts/ContractModel';
import type { ContractRegistry } from './contracts/ContractRegistry';
import type { LazyStorageDiff } from './contracts/LazyStorageDiff';
import { discoverFolders } from '../plugins/FolderDiscovery';
import { chooseProviders, earlyDeposits, type Provide } from './EarlyProviders';
import { chooseDeployer, launched, launchGroup, type LaunchStep } from './Launch';
import type { Prng } from './Prng';

/** What an extension's bootstrap gets in the genesis block. */
export interface GenesisContext {
  readonly book: AccountBook;
  readonly prng: Prng;
  readonly contracts: ContractRegistry;
  /** Users that hold tokens from the start (and the first LP shares). */
  readonly holders: readonly string[];
  /** Originates a bootstrap contract as an implicit result of the activation block; `init` fills its storage. */
  originate(model: ContractModel, balance: bigint, init: (diff: LazyStorageDiff) => void): void;
}

/** A weighted source of manager operations of the `defi` traffic family. */
export interface TrafficSource {
  /** `plugin:protocol`, the name a test asks for to keep only this source (SandboxChainOptions.traffic). */
  readonly name: string;
  readonly weight: number;
  build(ctx: BlockContext): Record<string, unknown> | undefined;
}

/**
 * What a plugin adds to the simulated chain, next to the adapter that indexes it (its `sandbox.ts`
 * exports `sandbox`): contract models with their bootstrap state, their traffic, and implicit results
 * of every block (Liquidity Baking's subsidy). The sandbox itself knows no protocol.
 */
export interface SandboxExtension {
  /** Extensions run in name order (the plugin's name), so chains stay reproducible. */
  readonly name: string;
  /** Registers bootstrap contract models; addresses come from the seed (`contracts.derivedAddress`), not the PRNG. */
  register?(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void;
  /** Originates and funds them in the activation block, after the chain's own contracts. */
  bootstrap?(g: GenesisContext): void;
  /** Shares of the `defi` traffic family, in order. */
  readonly traffic?: readonly TrafficSource[];
  /**
   * Manager groups built first in every block, before the traffic draw and whatever traffic a test keeps: what the
   * chain needs done early (a DEX's first providers opening and filling its pools, so farms have LP to stake).
   */
  openings?(ctx: BlockContext): Record<string, unknown>[];
  /** Implicit operation results appended to every block (after the genesis ones). */
  blockResults?(ctx: BlockContext): Record<string, unknown>[];
}

/**
 * A protocol's simulator: what its adapter folder's `sim/index.ts` exports (named after the folder), found like the
 * adapters (framework `discoverFolders`, in their `order`), so a protocol's simulator is in its folder too.
 */
export interface ProtocolSimulator {
  /** The adapter folder's name; its traffic is `<plugin>:<name>`. */
  readonly name: string;
  /** Originations before every protocol's bootstrap (an LP token other protocols' pools mint). */
  originateFirst?(g: GenesisContext): void;
  register?(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void;
  bootstrap?(g: GenesisContext): void;
  /** Its calls, with a weight of its own or an equal part of the plugin's `share`. */
  readonly traffic?: Pick<TrafficSource, 'build'> & { readonly weight?: number };
  /** Its pools' deposits the plugin's first holders make early, in every chain (EarlyProviders.ts). */
  readonly deposits?: readonly Provide[];
  /** Its contracts' originations and first calls by the plugin's deployer, in order (Launch.ts); traffic waits. */
  readonly launch?: readonly LaunchStep[];
  blockResults?(ctx: BlockContext): Record<string, unknown>[];
}

/** A plugin's extension made of the simulators of the protocol folders under `root` (`share`: see traffic). */
export function protocolSimulators(name: string, root: string, share?: number): SandboxExtension {
  const sims = discoverFolders<ProtocolSimulator>([root], path.join('sim', 'index'));
  const busy = sims.filter((s) => s.traffic);
  const deposits = sims.flatMap((s) => s.deposits ?? []);
  const steps = Array.from({ length: Math.max(0, ...sims.map((s) => s.launch?.length ?? 0)) }, (_, k) =>
    sims.flatMap((s) => s.launch?.[k] ?? []),
  );
  const weight = (s: ProtocolSimulator): number => {
    const w = s.traffic?.weight ?? (share === undefined ? undefined : share / busy.length);
    if (w === undefined) throw new Error(`${name}:${s.name} has traffic without a weight`);
    return w;
  };
  return {
    name,
    register: (contracts, book, errorPrefix) => sims.forEach((s) => s.register?.(contracts, book, errorPrefix)),
    bootstrap: (g) => {
      sims.forEach((s) => s.originateFirst?.(g));
      sims.forEach((s) => s.bootstrap?.(g));
      if (deposits.length > 0) chooseProviders(g, name);
      if (steps.length > 0) chooseDeployer(g, name);
    },
    openings:
      deposits.length > 0 || steps.length > 0
        ? (ctx) => [...launchGroup(ctx, name, steps), ...earlyDeposits(ctx, name, deposits)]
        : undefined,
    traffic: busy.map((s) => ({
      name: `${name}:${s.name}`,
      weight: weight(s),
      build: (ctx: BlockContext) => (launched(ctx, name, steps.length) ? s.traffic!.build(ctx) : undefined),
    })),
    blockResults: (ctx) => sims.flatMap((s) => s.blockResults?.(ctx) ?? []),
  };
}

/** Where the built-in plugins are compiled (dist/plugins), found by convention like PluginDiscovery does. */
const BUILTIN_PLUGIN_DIR = path.resolve(__dirname, '..', '..', 'plugins');

/** The `sandbox` exports of the built-in plugins' `sandbox.js` files, in name order. */
export function builtinSandboxExtensions(dir = BUILTIN_PLUGIN_DIR): SandboxExtension[] {
  if (!fs.existsSync(dir)) return [];
  const out: SandboxExtension[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'sandbox.js');
    if (!fs.existsSync(file)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandbox file found on disk at run time
    const ext = (require(file) as { sandbox?: SandboxExtension }).sandbox;
    if (!ext || typeof ext.name !== 'string') throw new Error(`${file} exports no sandbox extension`);
    out.push(ext);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
