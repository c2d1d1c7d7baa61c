import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { COST_PER_BYTE, type ContractModel, scriptSize } from '../contracts/ContractModel';
import { LazyStorageDiff } from '../contracts/LazyStorageDiff';
import { Registry } from '../contracts/Registry';
import { Ticketer } from '../contracts/Ticketer';
import { originatedAddress } from '../Keys';
import { bytes, int, type Micheline, pair, prim, str } from '../Michelson';
import { consumedMilligas, ManagerGroupBuilder, type ManagerContent } from './ManagerGroup';
import { logAmount, pickSource, TEZ } from './Sources';

/**
 * `origination` of user contracts: name registries (with a big map allocated and pre-filled) and
 * ticketers. The originator burns the storage (`paid_storage_size_diff` + origination size).
 */
export function buildOrigination(ctx: BlockContext): Record<string, unknown> | undefined {
  const { book, prng, contracts } = ctx;
  // Keep the book bounded: user contracts stop being originated once the profile's share is reached.
  if (contracts.ofRole('registry').length + contracts.ofRole('ticketer').length >= ctx.profile.maxAccounts / 4)
    return undefined;
  const source = pickSource(ctx, (a) => a.balance > 20n * TEZ);
  if (!source) return undefined;
  // The KT1 address derives from the operation hash, as the protocol's origination nonce does.
  const opHash = ctx.newOperationHash();
  const address = originatedAddress(opHash.digest, 0);
  const ticketer = prng.chance(0.25);
  const balance = prng.chance(0.3) ? logAmount(ctx, TEZ / 10n, 5n * TEZ) : 0n;
  const delegate = prng.chance(0.3) ? prng.pick(book.bakers).address : undefined;
  const entries: [string, string][] = Array.from({ length: prng.range(0, 3) }, (_, i) => [
    `name-${ctx.level}-${i}`,
    prng.hex(8),
  ]);
  const model = ticketer ? new Ticketer(book, address, `ticket-${ctx.level}`) : new Registry(book, address);
  const storageSize = BigInt(300 + entries.length * 68);
  const initialStorage =
    model instanceof Registry
      ? pair(
          entries.map(([k, v]) => prim('Elt', [str(k), bytes(v)])),
          int(entries.length),
        )
      : pair(str(model.content), int(0));
  const content: ManagerContent = {
    kind: 'origination',
    fields: {
      balance: String(balance),
      ...(delegate ? { delegate } : {}),
      script: { code: model.code, storage: initialStorage },
    },
    gasLimit: 1600,
    storageLimit: Number(storageSize) + 257,
    apply: () => {
      const diff = new LazyStorageDiff(book);
      book.createContract(address, { code: model.code, storage: [] }, delegate, storageSize);
      if (model instanceof Registry) model.init(diff, entries);
      else model.init();
      book.set(address, 'script', { code: model.code, storage: model.storage() });
      contracts.addOriginated(book, model, model instanceof Registry ? 'registry' : 'ticketer');
      return { result: originationResult(ctx, source.address, address, balance, storageSize, diff, 1600) };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content], true, opHash.hash);
}

/** The result of an origination by `source`: it burns the storage and the origination size, and funds `balance`. */
function originationResult(
  ctx: BlockContext,
  source: string,
  address: string,
  balance: bigint,
  storageSize: bigint,
  diff: LazyStorageDiff,
  gasLimit: number,
): Record<string, unknown> {
  const updates = new BalanceUpdates(ctx.book);
  updates.transfer(
    (b, c) => b.contract(source, c),
    (b, c) => b.burned('storage fees', c),
    storageSize * COST_PER_BYTE,
  );
  updates.transfer(
    (b, c) => b.contract(source, c),
    (b, c) => b.burned('storage fees', c),
    257n * COST_PER_BYTE,
  );
  if (balance > 0n)
    updates.transfer(
      (b, c) => b.contract(source, c),
      (b, c) => b.contract(address, c),
      balance,
    );
  const result: Record<string, unknown> = {
    balance_updates: updates.items,
    originated_contracts: [address],
    consumed_milligas: consumedMilligas(ctx, gasLimit),
    storage_size: String(storageSize),
    paid_storage_size_diff: String(storageSize),
  };
  if (!diff.isEmpty) result.lazy_storage_diff = diff.toJSON();
  return result;
}

/**
 * The origination of a protocol's contract model (registered beforehand at its seed-derived address) by `source`:
 * `init` fills its state when the content applies, and the operation carries the storage it starts with.
 */
export function modelOrigination(
  ctx: BlockContext,
  source: string,
  model: ContractModel,
  balance: bigint,
  init: (diff: LazyStorageDiff) => void,
): ManagerContent {
  const script: { code: Micheline; storage: Micheline } = { code: model.code, storage: [] };
  const content: ManagerContent = {
    kind: 'origination',
    fields: { balance: String(balance), script },
    gasLimit: 4000,
    // Set when applied: the storage and the origination size, as an estimate gives it.
    storageLimit: 0,
    apply: () => {
      const { book } = ctx;
      book.createContract(model.address, { code: model.code, storage: [] }, undefined, 0n);
      const diff = new LazyStorageDiff(book);
      init(diff);
      script.storage = model.storage();
      const size = scriptSize(model, script.storage);
      book.set(model.address, 'script', { code: model.code, storage: script.storage });
      book.set(model.address, 'storageSize', size);
      book.set(model.address, 'paidStorage', size);
      content.storageLimit = Number(size) + 257;
      return { result: originationResult(ctx, source, model.address, balance, size, diff, 4000) };
    },
  };
  return content;
}
