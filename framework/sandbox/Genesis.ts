import { BalanceUpdates } from './BalanceUpdates';
import type { BlockContext } from './BlockContext';
import { type ContractModel, scriptSize } from './contracts/ContractModel';
import { LazyStorageDiff } from './contracts/LazyStorageDiff';
import type { AccountBook } from './AccountBook';
import { newKeyPair, type ImplicitKind } from './Keys';
import type { Prng } from './Prng';
import type { SandboxProfile } from './profiles';

const TEZ = 1_000_000n;

/** The protocol's null address: tez sent there are burned (Liquidity Baking's burn goes there). */
export const NULL_ADDRESS = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';

export interface GenesisResult {
  balanceUpdates: BalanceUpdates;
  implicitResults: Record<string, unknown>[];
}

/**
 * Bootstrap state, written into the first block like a protocol activation: bakers and users funded by
 * `minted/bootstrap` updates (origin "migration"), bakers' own stake frozen, and the bootstrap contracts
 * originated as implicit operation results (with their big map allocations): the tokens, then each
 * sandbox extension's contracts.
 */
export function bootstrapChain(
  ctx: Pick<BlockContext, 'book' | 'prng' | 'profile' | 'contracts' | 'extensions'>,
): GenesisResult {
  const { book, prng, profile } = ctx;
  const updates = new BalanceUpdates(book, 'migration');
  for (const baker of book.bakers) {
    const stake = BigInt(baker.weight) * TEZ;
    updates.transfer(
      (b, c) => b.minted('bootstrap', c),
      (b, c) => b.contract(baker.address, c),
      stake / 4n,
    );
    updates.transfer(
      (b, c) => b.minted('bootstrap', c),
      (b, c) => b.deposits({ baker_own_stake: baker.address }, c),
      stake,
    );
    book.set(baker.address, 'revealed', true);
  }
  const kinds: ImplicitKind[] = ['tz1', 'tz1', 'tz1', 'tz1', 'tz1', 'tz1', 'tz2', 'tz3', 'tz4', 'tz1'];
  const users: string[] = [];
  for (let i = 0; i < profile.users; i++) {
    const account = book.createImplicit(newKeyPair(prng, kinds[i % kinds.length]));
    users.push(account.address);
    updates.transfer(
      (b, c) => b.minted('bootstrap', c),
      (b, c) => b.contract(account.address, c),
      prng.bigRange(2_000n, 60_000n) * TEZ,
    );
    if (prng.chance(0.7)) book.set(account.address, 'delegate', prng.pick(book.bakers).address);
  }

  book.createKeyless(NULL_ADDRESS);
  const implicitResults: Record<string, unknown>[] = [];
  const originate = (model: ContractModel, balance: bigint, init: (diff: LazyStorageDiff) => void) => {
    book.createContract(model.address, { code: model.code, storage: [] }, undefined, 0n);
    const diff = new LazyStorageDiff(book);
    init(diff);
    const storage = model.storage();
    const size = scriptSize(model, storage);
    book.set(model.address, 'script', { code: model.code, storage });
    book.set(model.address, 'storageSize', size);
    book.set(model.address, 'paidStorage', size);
    const bu = new BalanceUpdates(book, 'migration');
    if (balance > 0n)
      bu.transfer(
        (b, c) => b.minted('bootstrap', c),
        (b, c) => b.contract(model.address, c),
        balance,
      );
    const result: Record<string, unknown> = { kind: 'origination' };
    if (bu.items.length) result.balance_updates = bu.items;
    Object.assign(result, {
      originated_contracts: [model.address],
      consumed_milligas: '0',
      storage_size: String(size),
      paid_storage_size_diff: String(size),
    });
    if (!diff.isEmpty) result.lazy_storage_diff = diff.toJSON();
    implicitResults.push(result);
  };

  const { contracts } = ctx;
  const holders = users.slice(0, Math.max(4, Math.floor(users.length / 2)));
  for (const token of contracts.tokens) {
    originate(token, 0n, (diff) => {
      token.init(diff);
      for (const h of holders)
        token.mint(diff, h, prng.bigRange(1_000n, 100_000n) * 10n ** BigInt(Math.min(token.decimals, 8)));
    });
  }
  for (const e of ctx.extensions) e.bootstrap?.({ book, prng, contracts, holders, originate });
  return { balanceUpdates: updates, implicitResults };
}

/**
 * The bakers, registered before the first block, which funds them. Their bootstrap stakes follow a
 * steep power law, like mainnet where a few bakers hold most of the stake. Some bakers use BLS (tz4)
 * consensus keys, either as tz4 delegates or as tz1 delegates with a tz4 consensus key.
 */
export function createBakers(book: AccountBook, prng: Prng, profile: SandboxProfile): void {
  const plain: ImplicitKind[] = ['tz1', 'tz1', 'tz3', 'tz2', 'tz1'];
  for (let i = 0; i < profile.bakers; i++) {
    const bls = i >= profile.bakers - profile.blsBakers;
    const key = newKeyPair(prng, bls && i % 2 === 0 ? 'tz4' : plain[i % plain.length]);
    const account = book.createImplicit(key);
    const consensus = bls && key.kind !== 'tz4' ? newKeyPair(prng, 'tz4') : key;
    book.set(account.address, 'delegate', account.address);
    book.addBaker({
      address: key.address,
      consensusKey: consensus.address,
      consensusPk: consensus.publicKey,
      consensusKind: consensus.kind,
      companionKey: undefined,
      ownStaked: 0n,
      edgeStaked: 0n,
      sharedStaked: 0n,
      stakingDenominator: 0n,
      weight: Math.round(6_000_000 / (i + 1) ** 1.1) + 6_000,
      lastActiveLevel: 0,
      cycleExpectedSlots: 0,
      cycleMissedSlots: 0,
    });
  }
}
