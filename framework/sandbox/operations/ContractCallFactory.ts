import { BalanceUpdates } from '../BalanceUpdates';
import type { BlockContext } from '../BlockContext';
import { CallContext } from '../contracts/ContractModel';
import type { Fa12Token } from '../contracts/Fa12Token';
import { LazyStorageDiff } from '../contracts/LazyStorageDiff';
import { Registry } from '../contracts/Registry';
import type { Ticketer } from '../contracts/Ticketer';
import { originatedAddress } from '../Keys';
import { int, pair, str, unit } from '../Michelson';
import { ContentFailure, ManagerGroupBuilder, scriptRejected, type ManagerContent } from './ManagerGroup';
import { pickImplicit, pickSource, TEZ } from './Sources';

/**
 * Calls to contracts with parameters: FA1.2 `transfer`s by holders, registry `set`/`del`/`reset`/`clone`
 * (big map update/remove/alloc/copy, events, an internal origination) and ticketer `mint`s
 * (`ticket_updates`, `ticket_receipt`).
 */
export function buildContractCall(ctx: BlockContext): Record<string, unknown> | undefined {
  const r = ctx.prng.float();
  const registries = ctx.contracts.ofRole<Registry>('registry');
  const ticketers = ctx.contracts.ofRole<Ticketer>('ticketer');
  if (r < 0.35 && registries.length) return registryCall(ctx, ctx.prng.pick(registries));
  if (r < 0.5 && ticketers.length) return ticketMint(ctx, ctx.prng.pick(ticketers));
  return tokenTransfer(ctx, ctx.prng.pick(ctx.contracts.tokens));
}

function tokenTransfer(ctx: BlockContext, token: Fa12Token): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > TEZ && token.balanceOf(a.address) > 0n, false);
  if (!source) return undefined;
  const to = pickImplicit(ctx, source.address);
  if (!to) return undefined;
  const amount = 1n + ctx.prng.bigRange(0n, token.balanceOf(source.address) / 3n);
  const content = tokenTransferContent(ctx, token, source.address, to, amount);
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}

/** An FA1.2 `transfer` of `amount` that `from` sends itself. */
export function tokenTransferContent(
  ctx: BlockContext,
  token: Fa12Token,
  from: string,
  to: string,
  amount: bigint,
): ManagerContent {
  const held = token.balanceOf(from);
  const call = new CallContext(ctx, from);
  return {
    kind: 'transaction',
    fields: {
      amount: '0',
      destination: token.address,
      parameters: { entrypoint: 'transfer', value: pair(str(from), str(to), int(amount)) },
    },
    gasLimit: 2800,
    storageLimit: 100,
    apply: () => ({ result: token.transfer(call, from, from, to, amount).result }),
    failure: () =>
      scriptRejected(
        ctx.identity.errorPrefix,
        token.address,
        pair(str('NotEnoughBalance'), int(amount * 2n), int(held)),
      ),
  };
}

function registryCall(ctx: BlockContext, registry: Registry): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > 5n * TEZ);
  if (!source) return undefined;
  const { prng, book } = ctx;
  const opHash = ctx.newOperationHash();
  const existing = registry.someName((n) => prng.int(n));
  const roll = prng.float();
  const full = ctx.contracts.ofRole('registry').length >= ctx.profile.maxAccounts / 4;
  const entrypoint = roll < 0.6 || !existing ? 'set' : roll < 0.8 ? 'del' : roll < 0.9 || full ? 'reset' : 'clone';
  const name =
    entrypoint === 'set'
      ? existing && prng.chance(0.3)
        ? existing
        : `name-${ctx.level}-${prng.int(1000)}`
      : (existing ?? '');
  const data = prng.hex(prng.range(4, 32));
  const value = entrypoint === 'set' ? pair(str(name), { bytes: data }) : entrypoint === 'del' ? str(name) : unit;
  const content: ManagerContent = {
    kind: 'transaction',
    fields: { amount: '0', destination: registry.address, parameters: { entrypoint, value } },
    gasLimit: 4000,
    storageLimit: 400,
    apply: () => {
      const call = new CallContext(ctx, source.address);
      const diff = new LazyStorageDiff(book);
      if (entrypoint === 'clone') {
        cloneRegistry(ctx, call, registry, originatedAddress(opHash.digest, 0));
        return { result: call.contractResult(registry, diff, 4000, 0), internal: call.internal };
      }
      if (entrypoint === 'del' && !registry.has(name))
        throw new ContentFailure(scriptRejected(ctx.identity.errorPrefix, registry.address, str('UnknownName')));
      const { grown } = registry.apply(call, diff, entrypoint, name, data);
      return { result: call.contractResult(registry, diff, 4000, grown), internal: call.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content], true, opHash.hash);
}

/** Internal origination of a copy of `registry`, its big map copied (lazy_storage_diff `copy`). */
function cloneRegistry(ctx: BlockContext, call: CallContext, registry: Registry, address: string): void {
  const { book, contracts } = ctx;
  const copy = new Registry(book, address);
  const diff = new LazyStorageDiff(book);
  const size = book.get(registry.address).storageSize;
  book.createContract(address, { code: copy.code, storage: [] }, undefined, size);
  copy.initCopy(diff, registry.state.records, registry.state.count);
  book.set(address, 'script', { code: copy.code, storage: copy.storage() });
  contracts.addOriginated(book, copy, 'registry');
  const burn = new BalanceUpdates(book).transfer(
    (b, c) => b.contract(call.payer, c),
    (b, c) => b.burned('storage fees', c),
    (size + 257n) * 250n,
  );
  call.internal.push({
    kind: 'origination',
    source: registry.address,
    fields: { balance: '0', script: { code: copy.code, storage: copy.storage() } },
    result: {
      balance_updates: burn.items,
      originated_contracts: [address],
      consumed_milligas: '1500000',
      storage_size: String(size),
      paid_storage_size_diff: String(size),
      lazy_storage_diff: diff.toJSON(),
    },
  });
}

function ticketMint(ctx: BlockContext, ticketer: Ticketer): Record<string, unknown> | undefined {
  const source = pickSource(ctx, (a) => a.balance > TEZ);
  if (!source) return undefined;
  const amount = ctx.prng.bigRange(1n, 1000n);
  const content: ManagerContent = {
    kind: 'transaction',
    fields: {
      amount: '0',
      destination: ticketer.address,
      parameters: { entrypoint: 'mint', value: pair(str(source.address), int(amount)) },
    },
    gasLimit: 3000,
    storageLimit: 100,
    apply: () => {
      const call = new CallContext(ctx, source.address);
      ticketer.mint(amount);
      const updates = [
        { ticket_token: ticketer.token(), updates: [{ account: source.address, amount: String(amount) }] },
      ];
      const base = call.contractResult(ticketer, new LazyStorageDiff(ctx.book), 3000, 0);
      const { storage, ...rest } = base;
      call.internal.push({
        kind: 'transaction',
        source: ticketer.address,
        fields: {
          amount: '0',
          destination: source.address,
          parameters: { entrypoint: 'default', value: ticketer.ticketValue(amount) },
        },
        result: { consumed_milligas: '1100000', ticket_receipt: updates },
      });
      return { result: { storage, ticket_updates: updates, ...rest }, internal: call.internal };
    },
  };
  return new ManagerGroupBuilder(ctx).build(source.address, [content]);
}
