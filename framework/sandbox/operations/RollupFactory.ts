import type { BlockContext } from '../BlockContext';
import { ManagerGroupBuilder } from './ManagerGroup';
import { consumedMilligas } from './ManagerGroup';
import { pickSource, TEZ } from './Sources';

/**
 * `smart_rollup_add_messages`: sequencers posting batches to the shared inbox, present in almost every
 * recent mainnet block. Messages are hex payloads of a few hundred bytes.
 */
export function buildRollupMessage(ctx: BlockContext): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > TEZ);
  if (!source) return undefined;
  const message = Array.from({ length: ctx.prng.range(1, 3) }, () => ctx.prng.hex(ctx.prng.range(48, 400)));
  const gasLimit = 400 + message.length * 100;
  return new ManagerGroupBuilder(ctx).build(source.address, [
    {
      kind: 'smart_rollup_add_messages',
      fields: { message },
      gasLimit,
      storageLimit: 0,
      apply: () => ({ result: { consumed_milligas: consumedMilligas(ctx, gasLimit) } }),
    },
  ]);
}
