import type { BlockContext } from '../BlockContext';

export function buildVotingOperations(_ctx: BlockContext): Record<string, unknown>[] {
  return [];
}
