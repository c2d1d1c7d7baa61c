import type { BlockContext } from '../BlockContext';

export function buildAdminOperation(_ctx: BlockContext): Record<string, unknown> | undefined {
  return undefined;
}
