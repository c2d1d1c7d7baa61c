import type { AccountBook } from '../AccountBook';
import { blake2bOf } from '../Hashing';
import { originatedAddress } from '../Keys';
import type { ContractModel, ContractRole } from './ContractModel';
import { Fa12Token } from './Fa12Token';

/** Mainnet addresses kept for the bootstrap tokens so plugins recognise them. */
export const KNOWN_ADDRESSES = {
  tzBTC: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
  kUSD: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
  ctez: 'KT1SjXiUX63QvdNMcM2m492f7kuf8JxXRLp4',
} as const;

export interface KnownContract {
  address: string;
  role: ContractRole;
  name: string;
  service?: string;
}

/**
 * The contract models of the chain, by address: the bootstrap tokens, those sandbox extensions
 * register (DEX pools, farms, lending markets…) and those originated later. Models are stateless
 * descriptors; their state lives in the AccountBook.
 */
export class ContractRegistry {
  private readonly models = new Map<string, ContractModel>();
  private readonly names = new Map<string, string>();
  private readonly order: string[] = [];
  private readonly storageTargets: ContractModel[] = [];

  readonly tzBTC: Fa12Token;
  readonly kUSD: Fa12Token;
  readonly ctez: Fa12Token;

  constructor(
    book: AccountBook,
    private readonly seed: string,
    errorPrefix: string,
  ) {
    this.tzBTC = this.add(new Fa12Token(book, KNOWN_ADDRESSES.tzBTC, 'tzBTC', 8, errorPrefix), 'tzBTC');
    this.kUSD = this.add(new Fa12Token(book, KNOWN_ADDRESSES.kUSD, 'kUSD', 18, errorPrefix), 'kUSD');
    this.ctez = this.add(new Fa12Token(book, KNOWN_ADDRESSES.ctez, 'ctez', 6, errorPrefix), 'ctez');
  }

  /** A bootstrap contract's address derived from the chain seed and a label (no PRNG draw). */
  derivedAddress(label: string): string {
    return originatedAddress(blake2bOf(32, 'tzidx-sandbox-contract', this.seed, label), 0);
  }

  add<M extends ContractModel>(model: M, name: string): M {
    this.models.set(model.address, model);
    this.names.set(model.address, name);
    this.order.push(model.address);
    return model;
  }

  /** A contract originated by an operation: registered with an undo entry, so a reorg forgets it. */
  addOriginated<M extends ContractModel>(book: AccountBook, model: M, name: string): M {
    this.add(model, name);
    book.recordUndo(() => {
      this.models.delete(model.address);
      this.names.delete(model.address);
      this.order.pop();
    });
    return model;
  }

  /** A bootstrap contract whose storage users may prepay (`increase_paid_storage`). */
  addPaidStorageTarget(model: ContractModel): void {
    this.storageTargets.push(model);
  }

  get paidStorageTargets(): readonly ContractModel[] {
    return this.storageTargets;
  }

  /** Contracts of a role, in origination order. */
  ofRole<M extends ContractModel>(role: ContractRole): M[] {
    return this.order.map((a) => this.models.get(a) as ContractModel).filter((m) => m.role === role) as M[];
  }

  get(address: string): ContractModel | undefined {
    return this.models.get(address);
  }

  /** A registered model that must exist (extensions look up each other's contracts). */
  require<M extends ContractModel>(address: string): M {
    const m = this.models.get(address);
    if (!m) throw new Error(`sandbox: no contract ${address} registered`);
    return m as M;
  }

  /** Bootstrap contracts with their roles, for adapter tests that need the addresses. */
  known(): KnownContract[] {
    return this.order
      .map((a) => this.models.get(a) as ContractModel)
      .map((m) => ({
        address: m.address,
        role: m.role,
        name: this.names.get(m.address) ?? m.role,
        ...(m.service ? { service: m.service } : {}),
      }));
  }

  /** Tokens users hold from the start and send to each other. */
  get tokens(): Fa12Token[] {
    return [this.tzBTC, this.kUSD, this.ctez];
  }
}
