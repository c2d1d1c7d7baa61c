import { DependencyContainer } from 'tsyringe';
import { Catalog } from '../catalog/Catalog';
import type { TableClass } from '../catalog/decorators';
import type { ReconciliationCheck } from '../check/Reconciliation';
import { InstanceConfig } from '../config/InstanceConfig';
import { RouteRegistry } from '../http/RouteRegistry';
import { HandlerRegistry } from '../indexer/IndexContext';
import { Logger } from '../util/Logger';

export interface PluginManifest {
  /** Unique name, also the plugin's key in tables.yaml and (with `-` → `_`) its Postgres schema. */
  readonly name: string;
  readonly description?: string;
  /** Plugins that must be loaded (and run) before this one. */
  readonly dependsOn?: readonly string[];
  /** Decorated @table classes, for plugins that declare tables in code rather than in tables.yaml. */
  readonly tableClasses?: readonly TableClass[];
  /**
   * What setup() may return (`stop` goes with `start`), so `tzidx plugins` tells an empty plugin
   * without setting it up: the app refuses a setup() that returns anything this leaves out (returning
   * less is allowed, as a test subclass that only serves does). Absent: not said (never shown as empty).
   */
  readonly contributes?: readonly ContributionKind[];
}

export type ContributionKind = 'handlers' | 'routes' | 'start' | 'checks';

/** What `contribution` holds that `manifest.contributes` leaves out; undefined when nothing (or it says nothing). */
export function contributionMismatch(manifest: PluginManifest, contribution: PluginContribution): string | undefined {
  const declared = manifest.contributes;
  if (!declared) return undefined;
  const kinds: readonly ContributionKind[] = ['handlers', 'routes', 'start', 'checks'];
  const undeclared = kinds.filter((k) => contribution[k] !== undefined && !declared.includes(k));
  if (undeclared.length === 0) return undefined;
  return `plugin ${manifest.name}: setup() returns ${undeclared.join(', ')}, which its manifest's contributes [${declared.join(', ')}] leaves out`;
}

export interface PluginContext {
  readonly container: DependencyContainer;
  readonly config: InstanceConfig;
  /** The catalog of the enabled plugins. */
  readonly catalog: Catalog;
  readonly log: Logger;
}

/**
 * What a plugin contributes, as its setup() returns it. The framework calls `handlers` and `routes`
 * once every plugin is set up (in plugin order), so they may use services other plugins registered.
 */
export interface PluginContribution {
  /** Subscribes the plugin's indexing handlers to the shared block dispatcher (run in plugin order). */
  handlers?(registry: HandlerRegistry): void;
  /** Declares the plugin's HTTP routes. */
  routes?(routes: RouteRegistry): void;
  /**
   * Starts work that is not driven by blocks (e.g. polling exchanges): `tzidx start` calls it next to
   * the indexer (TzidxApp.startPlugins); `stop` ends it before the database closes. Read-only
   * replicas and tests that only index never start it.
   */
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  /** Invariants of the plugin's indexed data, run by `tzidx check <family>` (framework/check). */
  checks?(): readonly ReconciliationCheck[];
}

/**
 * A plugin: a class with a static manifest; the framework instantiates it through the container and
 * calls setup() once. One method, so what the handlers and routes need is built before them and
 * handed to them by closure: no plugin can be half set up.
 */
export interface TzidxPlugin {
  /** Registers the plugin's services in the container and says what the plugin contributes. */
  setup(ctx: PluginContext): PluginContribution | Promise<PluginContribution>;
}

export interface PluginClass {
  readonly manifest: PluginManifest;
  new (...args: never[]): TzidxPlugin;
}

export function isPluginClass(v: unknown): v is PluginClass {
  const m = (v as { manifest?: PluginManifest } | undefined)?.manifest;
  return typeof v === 'function' && typeof m?.name === 'string';
}
