import type { BlockContext } from '../BlockContext';

export function buildDefiCall(_ctx: BlockContext): Record<string, unknown> | undefined {
  return undefined;
}
