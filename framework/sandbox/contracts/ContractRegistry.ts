import type { AccountBook } from '../AccountBook';
import { blake2bOf } from '../Hashing';
import { originatedAddress } from '../Keys';
import type { ContractModel, ContractRole } from './ContractModel';
import { CpmmPool } from './CpmmPool';
import { Fa12Token } from './Fa12Token';
import { Farm } from './Farm';
import { LendingMarket } from './LendingMarket';

/** Mainnet addresses kept for the protocol-level contracts so DeFi plugins recognise them. */
export const KNOWN_ADDRESSES = {
  lbCpmm: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5',
  tzBTC: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
  sirius: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo',
  kUSD: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
  quipuKusd: 'KT1K4EwTpbvYN9agJdjpyJm4ZZdhpUNKB3F6',
  ctez: 'KT1SjXiUX63QvdNMcM2m492f7kuf8JxXRLp4',
} as const;

export interface KnownContract {
  address: string;
  role: ContractRole;
  name: string;
}

/**
 * The contract models of the chain, by address: bootstrap contracts (tokens, LB, DEXes, farm, lending)
 * and those originated later. Models are stateless descriptors; their state lives in the AccountBook.
 */
export class ContractRegistry {
  private readonly models = new Map<string, ContractModel>();
  private readonly names = new Map<string, string>();
  private readonly order: string[] = [];

  readonly tzBTC: Fa12Token;
  readonly sirius: Fa12Token;
  readonly kUSD: Fa12Token;
  readonly ctez: Fa12Token;
  readonly plentyLp: Fa12Token;
  readonly lb: CpmmPool;
  readonly quipuswap: CpmmPool;
  readonly plenty: CpmmPool;
  readonly farm: Farm;
  readonly lending: LendingMarket;

  constructor(book: AccountBook, seed: string, errorPrefix: string) {
    const derived = (label: string) => originatedAddress(blake2bOf(32, 'tzidx-sandbox-contract', seed, label), 0);
    this.tzBTC = this.add(new Fa12Token(book, KNOWN_ADDRESSES.tzBTC, 'tzBTC', 8, errorPrefix), 'tzBTC');
    this.sirius = this.add(new Fa12Token(book, KNOWN_ADDRESSES.sirius, 'SIRS', 0, errorPrefix), 'Sirius LQT');
    this.kUSD = this.add(new Fa12Token(book, KNOWN_ADDRESSES.kUSD, 'kUSD', 18, errorPrefix), 'kUSD');
    this.ctez = this.add(new Fa12Token(book, KNOWN_ADDRESSES.ctez, 'ctez', 6, errorPrefix), 'ctez');
    this.plentyLp = this.add(new Fa12Token(book, derived('plenty-lp'), 'CTEZ-KUSD-LP', 6, errorPrefix), 'Plenty ctez/kUSD LP');
    this.lb = this.add(new CpmmPool(book, KNOWN_ADDRESSES.lbCpmm, 'lb_cpmm', this.tzBTC, this.sirius, undefined), 'Liquidity Baking CPMM');
    this.quipuswap = this.add(new CpmmPool(book, KNOWN_ADDRESSES.quipuKusd, 'quipuswap_v1', this.kUSD, undefined, undefined), 'QuipuSwap tez/kUSD');
    this.plenty = this.add(new CpmmPool(book, derived('plenty-pool'), 'plenty_volatile', this.ctez, this.plentyLp, this.kUSD), 'Plenty ctez/kUSD');
    this.farm = this.add(new Farm(book, derived('plenty-farm'), this.plentyLp, this.ctez), 'Plenty ctez/kUSD LP farm');
    this.lending = this.add(new LendingMarket(book, derived('yupana'), [this.kUSD, this.tzBTC, this.ctez]), 'Yupana-style lending');
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

  /** Contracts of a role, in origination order. */
  ofRole<M extends ContractModel>(role: ContractRole): M[] {
    return this.order.map((a) => this.models.get(a) as ContractModel).filter((m) => m.role === role) as M[];
  }

  get(address: string): ContractModel | undefined {
    return this.models.get(address);
  }

  /** Bootstrap contracts with their roles, for adapter tests that need the addresses. */
  known(): KnownContract[] {
    return this.order.map((a) => this.models.get(a) as ContractModel).map((m) => ({ address: m.address, role: m.role, name: this.names.get(m.address) ?? m.role }));
  }

  get tokens(): Fa12Token[] {
    return [this.tzBTC, this.kUSD, this.ctez];
  }

  get pools(): CpmmPool[] {
    return [this.lb, this.quipuswap, this.plenty];
  }
}
