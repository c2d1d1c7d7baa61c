import type { BlockContext } from '../BlockContext';

export function buildAnonymousOperations(_ctx: BlockContext): Record<string, unknown>[] {
  return [];
}
