import type { BlockContext } from '../BlockContext';

export function buildContractCall(_ctx: BlockContext): Record<string, unknown> | undefined {
  return undefined;
}
