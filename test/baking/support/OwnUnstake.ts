import { BalanceUpdates } from '../../../framework/sandbox/BalanceUpdates';
import type { BlockContext } from '../../../framework/sandbox/BlockContext';
import { unit } from '../../../framework/sandbox/Michelson';
import { consumedMilligas, ManagerGroupBuilder } from '../../../framework/sandbox/operations/ManagerGroup';
import type { SandboxExtension } from '../../../framework/sandbox/SandboxExtension';

const TEZ = 1_000_000n;

/**
 * Test traffic that makes the smallest bootstrap baker over-delegated the way a real one gets there: from
 * level `from` on, it unstakes its own stake down to `keep` (Paris+ receipts: `baker_own_stake` deposits
 * → its own `unstaked_deposits`), so its unstake request and its delegators' tez exceed
 * limit_of_delegation_over_baking × what it still stakes. Nothing to do once done.
 */
export function ownUnstake(from: number, keep = 50_000n * TEZ): SandboxExtension {
  return {
    name: 'test-own-unstake',
    traffic: [
      {
        name: 'test:own-unstake',
        weight: 1,
        build(ctx: BlockContext) {
          const baker = [...ctx.book.bakers].sort((a, b) => a.weight - b.weight)[0];
          if (ctx.level < from || !baker || baker.ownStaked <= keep + TEZ) return undefined;
          const amount = baker.ownStaked - keep;
          const own = { contract: baker.address, delegate: baker.address };
          return new ManagerGroupBuilder(ctx).build(
            baker.address,
            [
              {
                kind: 'transaction',
                fields: {
                  amount: String(amount),
                  destination: baker.address,
                  parameters: { entrypoint: 'unstake', value: unit },
                },
                gasLimit: 3800,
                storageLimit: 0,
                apply: () => ({
                  result: {
                    balance_updates: new BalanceUpdates(ctx.book).transfer(
                      (b, c) => b.deposits({ baker_own_stake: baker.address }, c),
                      (b, c) => b.unstaked(own, ctx.cycle, c),
                      amount,
                    ).items,
                    consumed_milligas: consumedMilligas(ctx, 3800),
                  },
                }),
              },
            ],
            false,
          );
        },
      },
    ],
  };
}
