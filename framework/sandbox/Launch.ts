import type { BlockContext } from './BlockContext';
import { FIRST_LEVEL } from './EarlyProviders';
import type { GenesisContext } from './SandboxExtension';
import { ManagerGroupBuilder, type ManagerContent } from './operations/ManagerGroup';

/**
 * Why: every mainnet farm and lending market was originated by an operation, and its first stakes and deposits were
 * calls, so the indexer sees a creator and first positions. A plugin's launch is a list of steps its deployer (the
 * first token holder) sends, one group a block, in the first blocks it is free in (the DEX's early providers come
 * first, so their deposits are kept): step k is one batch of every protocol's k-th contents (originations, then
 * first stakes and deposits). A protocol's traffic waits until its plugin's launch is done.
 */
export type LaunchStep = (ctx: BlockContext, deployer: string) => ManagerContent[];

const deployerVar = (plugin: string) => `${plugin}:deployer`;
const doneVar = (plugin: string) => `${plugin}:launched`;

/** Genesis: the deployer is the first token holder (the admin the contracts' storages name). */
export function chooseDeployer(g: GenesisContext, plugin: string): void {
  g.book.setVar(deployerVar(plugin), g.holders[0]);
}

/** Whether the plugin's launch steps have all been sent. */
export function launched(ctx: BlockContext, plugin: string, steps: number): boolean {
  return ctx.book.getVar(doneVar(plugin), 0) >= steps;
}

/** The deployer's next launch group, when it is free in this block; `steps[k]` are the protocols' k-th steps. */
export function launchGroup(
  ctx: BlockContext,
  plugin: string,
  steps: readonly (readonly LaunchStep[])[],
): Record<string, unknown>[] {
  const deployer = ctx.book.getVar<string | undefined>(deployerVar(plugin), undefined);
  const done = ctx.book.getVar(doneVar(plugin), 0);
  if (!deployer || done >= steps.length || ctx.level < FIRST_LEVEL || ctx.usedSources.has(deployer)) return [];
  ctx.book.setVar(doneVar(plugin), done + 1);
  const contents = steps[done].flatMap((step) => step(ctx, deployer));
  return contents.length > 0 ? [new ManagerGroupBuilder(ctx).build(deployer, contents, false)] : [];
}
