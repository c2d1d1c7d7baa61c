import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { COST_PER_BYTE } from '../contracts/ContractModel';
import { b58, PrefixV2 } from '../Hashing';
import { newKeyPair } from '../Keys';
import { globalConstantAddress, globalConstantSize, int, pair, prim, str, type Micheline } from '../Michelson';
import { consumedMilligas, ContentFailure, ManagerGroupBuilder, type ManagerContent } from './ManagerGroup';
import { pickSource, TEZ } from './Sources';

/**
 * Less frequent manager operations: `register_global_constant`, `increase_paid_storage` and, by
 * bakers, `update_consensus_key` / `update_companion_key` (recorded as pending keys; the sandbox keeps
 * signing with the active key, see docs/sandbox.md).
 */
export function buildAdminOperation(ctx: BlockContext): Record<string, unknown> | undefined {
  const r = ctx.prng.float();
  if (r < 0.4) return registerGlobalConstant(ctx);
  if (r < 0.75) return increasePaidStorage(ctx);
  if (r < 0.9) return updateKey(ctx, 'update_consensus_key');
  return updateKey(ctx, 'update_companion_key');
}

/**
 * A new constant, or now and then the resubmission of one already on chain: the protocol refuses it, so
 * that content fails with the node's `Expression_already_registered` (fees are still paid).
 */
function registerGlobalConstant(ctx: BlockContext): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > 5n * TEZ);
  if (!source) return undefined;
  const { book, prng } = ctx;
  const registered = [...book.globalConstants.values()];
  const value: Micheline =
    registered.length && prng.chance(0.15)
      ? prng.pick(registered)
      : prng.chance(0.5)
        ? pair(str(`const-${ctx.level}-${prng.int(1e6)}`), int(prng.int(1e9)))
        : prim('Pair', [int(ctx.level), prim('Unit')]);
  const size = BigInt(globalConstantSize(value));
  const content: ManagerContent = {
    kind: 'register_global_constant',
    fields: { value },
    gasLimit: 1400,
    storageLimit: Number(size),
    apply: () => {
      const address = globalConstantAddress(value);
      if (book.globalConstants.has(address))
        throw new ContentFailure([
          { kind: 'permanent', id: `${ctx.identity.errorPrefix}.Expression_already_registered` },
        ]);
      const updates = new BalanceUpdates(book).transfer(
        (b, c) => b.contract(source.address, c),
        (b, c) => b.burned('storage fees', c),
        size * COST_PER_BYTE,
      );
      book.registerGlobalConstant(address, value);
      return {
        result: {
          balance_updates: updates.items,
          consumed_milligas: consumedMilligas(ctx, 1400),
          storage_size: String(size),
          global_address: address,
        },
      };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}

function increasePaidStorage(ctx: BlockContext): Record<string, unknown> | undefined {
  const { book, prng, contracts } = ctx;
  const targets = [...contracts.ofRole('registry'), ...contracts.ofRole('ticketer'), ...contracts.paidStorageTargets];
  if (targets.length === 0) return undefined;
  const target = prng.pick(targets).address;
  const source = pickSource(ctx, (a) => a.balance > 5n * TEZ);
  if (!source) return undefined;
  const bytes = BigInt(prng.range(10, 500));
  const content: ManagerContent = {
    kind: 'increase_paid_storage',
    fields: { amount: String(bytes), destination: target },
    gasLimit: 1000,
    storageLimit: 0,
    apply: () => {
      book.set(target, 'paidStorage', book.get(target).paidStorage + bytes);
      const updates = new BalanceUpdates(book).transfer(
        (b, c) => b.contract(source.address, c),
        (b, c) => b.burned('storage fees', c),
        bytes * COST_PER_BYTE,
      );
      return { result: { balance_updates: updates.items, consumed_milligas: consumedMilligas(ctx, 1000) } };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}

function updateKey(
  ctx: BlockContext,
  kind: 'update_consensus_key' | 'update_companion_key',
): Record<string, unknown> | undefined {
  const { book, prng } = ctx;
  const source = pickSource(ctx, (a) => book.baker(a.address) !== undefined && a.balance > TEZ);
  if (!source) return undefined;
  const keyKind = kind === 'update_companion_key' ? 'tz4' : prng.pick(['tz1', 'tz4'] as const);
  const key = newKeyPair(prng, keyKind);
  const fields: Record<string, unknown> = { pk: key.publicKey };
  // A BLS key comes with its proof of possession (Seoul+).
  if (keyKind === 'tz4') fields.proof = b58(prng.bytes(96), PrefixV2.BLS12_381Signature);
  const pendingVar = `pending-${kind}`;
  const content: ManagerContent = {
    kind,
    fields,
    gasLimit: 1100,
    storageLimit: 0,
    apply: () => {
      const pending = book.getVar<Record<string, { pkh: string; pk: string; cycle: number }>>(pendingVar, {});
      book.setVar(pendingVar, {
        ...pending,
        [source.address]: { pkh: key.address, pk: key.publicKey, cycle: ctx.cycle + 3 },
      });
      return { result: { kind: kind === 'update_consensus_key', consumed_milligas: consumedMilligas(ctx, 1100) } };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}
