import type { AccountBook } from '../AccountBook';
import { bytes, int, pair, prim, str, t, type Micheline } from '../Michelson';
import { CallContext, type ContractModel } from './ContractModel';
import { bigMapGet, type LazyStorageDiff } from './LazyStorageDiff';
import { entrypoints, pairT, script, tAddress, tBigMap, tBytes, tInt, tNat, tString } from './scripts';
import { ContentFailure, type ResultFields, scriptRejected } from '../operations/ManagerGroup';

interface Fa12State {
  ledger: number;
  totalSupply: bigint;
  tokenMetadata: number;
}

const PARAMETER = entrypoints(
  ['transfer', pairT(tAddress(':from'), tAddress(':to'), tNat(':value'))],
  ['approve', pairT(tAddress(':spender'), tNat(':value'))],
  ['mintOrBurn', pairT(tInt('%quantity'), tAddress('%target'))],
);
// TZIP-12/21 token metadata (token 0: name, symbol, decimals as UTF-8 bytes), as kUSD keeps it.
const TOKEN_INFO = pairT(tNat('%token_id'), t('map', '%token_info', tString(), tBytes()));
const STORAGE = pairT(
  tBigMap(tAddress(), tNat(), '%tokens'),
  tNat('%total_supply'),
  tBigMap(tNat(), TOKEN_INFO, '%token_metadata'),
);

/** A fungible FA1.2 token (tzBTC-, kUSD-, ctez-like) with an `address → nat` ledger big map. */
export class Fa12Token implements ContractModel {
  readonly role = 'fa1.2' as const;
  readonly code = script(PARAMETER, STORAGE);

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly symbol: string,
    readonly decimals: number,
    private readonly errorPrefix: string,
  ) {}

  /** Called once the account exists: allocates the ledger. */
  init(diff: LazyStorageDiff): void {
    const ledger = diff.alloc(tAddress(), tNat());
    const tokenMetadata = diff.alloc(tNat(), TOKEN_INFO);
    const utf8 = (s: string): Micheline => bytes(Buffer.from(s, 'utf8').toString('hex'));
    const info = [
      ['decimals', String(this.decimals)],
      ['name', this.symbol],
      ['symbol', this.symbol],
    ].map(([k, v]) => prim('Elt', [str(k), utf8(v)]));
    diff.update(tokenMetadata, int(0), pair(int(0), info));
    this.book.setState<Fa12State>(this.address, { ledger, totalSupply: 0n, tokenMetadata });
  }

  private get st(): Fa12State {
    return this.book.state<Fa12State>(this.address);
  }

  storage(): Micheline {
    return pair(int(this.st.ledger), int(this.st.totalSupply), int(this.st.tokenMetadata));
  }

  balanceOf(holder: string): bigint {
    const v = bigMapGet(this.book, this.st.ledger, str(holder));
    return v && 'int' in v ? BigInt(v.int) : 0n;
  }

  /** Ledger change; returns how many entries were created (storage growth). */
  private credit(diff: LazyStorageDiff, holder: string, delta: bigint): number {
    const before = this.balanceOf(holder);
    const after = before + delta;
    if (after < 0n)
      throw new ContentFailure(
        scriptRejected(this.errorPrefix, this.address, pair(str('NotEnoughBalance'), int(-delta), int(before))),
      );
    diff.update(this.st.ledger, str(holder), after === 0n ? undefined : int(after));
    return before === 0n && after > 0n ? 1 : 0;
  }

  mint(diff: LazyStorageDiff, to: string, amount: bigint): void {
    this.credit(diff, to, amount);
    this.book.setState<Fa12State>(this.address, { ...this.st, totalSupply: this.st.totalSupply + amount });
  }

  /** `transfer` called by `sender` (a user or a DEX contract); records the internal call when internal. */
  transfer(
    call: CallContext,
    sender: string,
    from: string,
    to: string,
    amount: bigint,
    gasLimit = 2800,
  ): { value: Micheline; result: ResultFields } {
    const diff = call.newDiff();
    let grown = this.credit(diff, from, -amount);
    grown += this.credit(diff, to, amount);
    const value = pair(str(from), str(to), int(amount));
    const result = call.contractResult(this, diff, gasLimit, grown);
    if (sender.startsWith('KT1')) call.pushCall(sender, this, 0n, 'transfer', value, result);
    return { value, result };
  }

  /** `mintOrBurn` as the LB liquidity token exposes it (called by the CPMM). */
  mintOrBurn(call: CallContext, sender: string, target: string, quantity: bigint): void {
    const diff = call.newDiff();
    const grown = this.credit(diff, target, quantity);
    this.book.setState<Fa12State>(this.address, { ...this.st, totalSupply: this.st.totalSupply + quantity });
    call.pushCall(
      sender,
      this,
      0n,
      'mintOrBurn',
      pair(int(quantity), str(target)),
      call.contractResult(this, diff, 2500, grown),
    );
  }
}
