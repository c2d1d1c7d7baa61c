import type { BlockContext } from '../BlockContext';

/**
 * The `defi` traffic family: one draw picks one of the extensions' traffic sources by weight (pools,
 * farms, lending…); undefined when no extension contributes or the source has nothing to do.
 */
export function buildExtensionCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const sources = ctx.extensions.flatMap((e) => e.traffic ?? []);
  if (sources.length === 0) return undefined;
  return sources[ctx.prng.weighted(sources.map((s) => s.weight))].build(ctx);
}
