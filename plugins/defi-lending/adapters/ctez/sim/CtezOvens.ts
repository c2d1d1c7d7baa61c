import {
  type AccountBook,
  BalanceUpdates,
  bigMapGet,
  CallContext,
  type ContractModel,
  type ContractRegistry,
  ContentFailure,
  entrypoints,
  namedPairT,
  type Fa12Token,
  int,
  type LazyStorageDiff,
  type Micheline,
  pair,
  pairT,
  prim,
  script,
  scriptRejected,
  str,
  tAddress,
  tBigMap,
  tBytes,
  tInt,
  tMutez,
  tNat,
  tString,
  tTimestamp,
  tUnit,
  unit,
} from '../../../../../framework/sandbox/extension';
import { ctez2Code, oven2Type, ovenHandleType } from '../types.gen';

/** ctez 2's Float64: figures ×2^64 (target, each half dex's fee index); `mul` = a × b / 2^64. */
const ONE = 1n << 64n;
const mul = (a: bigint, b: bigint): bigint => (a * b) >> 64n;
/**
 * ctez 2's `fee_rate` at its maximum (~1%/year, per second ×2^64): the model's half dexes hold no liquidity, so `q < _Q
 * / 8`.
 */
const MAX_RATE = 5_845_483_520n;
/** The target (tez per ctez ×2^64): 1.05, fixed (the model has no drift). */
const TARGET = (ONE * 105n) / 100n;

const HANDLE = pairT(tNat('%id'), tAddress('%owner'));
const OVEN = pairT(tMutez('%tez_balance'), tNat('%ctez_outstanding'), tAddress('%address'), tNat('%fee_index'));
const DEPOSITORS = prim('or', [tUnit('%any'), prim('set', [tAddress()], ['%whitelist'])], ['%depositors']);
const CONTRACT_UNIT = prim('contract', [tUnit()], ['%to']);
const LIQUIDITY_OWNER = pairT(tNat('%liquidity_shares'), tNat('%proceeds_owed'), tNat('%subsidy_owed'));
/** A half dex of ctez 2 (`sell_ctez`, `sell_tez`), every field of `half_dex.mligo`'s record. */
const halfDex = (annot: string): Micheline =>
  namedPairT(
    annot,
    tBigMap(tAddress(), LIQUIDITY_OWNER, '%liquidity_owners'),
    tNat('%total_liquidity_shares'),
    tNat('%self_reserves'),
    tNat('%proceeds_debts'),
    tNat('%proceeds_reserves'),
    tNat('%subsidy_debts'),
    tNat('%subsidy_reserves'),
    tNat('%fee_index'),
  );

/** An oven as the `ovens` big map keeps it. */
export interface OvenEntry {
  readonly id: bigint;
  readonly owner: string;
  readonly tezBalance: bigint;
  readonly ctezOutstanding: bigint;
  readonly address: string;
  readonly feeIndex: bigint;
}

interface CtezState {
  ovens: number;
  /** The half dexes' `liquidity_owners` big maps (empty: the model's half dexes hold no liquidity). */
  sellCtezOwners: number;
  sellTezOwners: number;
  metadata: number;
  originator: string;
  lastUpdate: bigint;
  /** Fee indexes of the sell-ctez and sell-tez half dexes (×2^64 each). */
  feeCtez: bigint;
  feeTez: bigint;
}

const seconds = (call: CallContext): bigint => BigInt(Math.floor(Date.parse(call.ctx.timestamp) / 1000));

/**
 * An oven contract (ctez 2 `oven.mligo`): `default` deposits through the main contract, `withdraw` pays out on its
 * order.
 */
export class OvenContract implements ContractModel {
  readonly role = 'ctez-oven' as const;
  readonly code = script(
    entrypoints(
      ['default', tUnit()],
      ['delegate', prim('option', [prim('key_hash')])],
      [
        'edit_depositor',
        prim('or', [prim('bool', [], ['%allow_any']), prim('pair', [prim('bool'), tAddress()], ['%allow_account'])]),
      ],
      ['withdraw', pairT(tMutez(), prim('contract', [tUnit()]))],
    ),
    pairT(tAddress('%admin'), namedPairT('%handle', tNat('%id'), tAddress('%owner')), DEPOSITORS),
  );

  constructor(
    readonly address: string,
    readonly admin: string,
    readonly id: bigint,
    readonly owner: string,
  ) {}

  storage(): Micheline {
    return pair(str(this.admin), pair(int(this.id), str(this.owner)), prim('Left', [unit]));
  }
}

/**
 * The ctez 2 main contract reduced to its ovens: `create_oven {id, delegate, depositors}` (originates an
 * oven holding the tez sent), `register_oven_deposit {handle, amount}` (the oven's call on a deposit),
 * `withdraw_from_oven {id, amount, to}`, `mint_or_burn {id, quantity}` (ctez minted to / burned from the
 * owner through the token's `mintOrBurn`) and `liquidate_oven {handle, quantity, to}`, with ctez 2's
 * formulas: every call first grows both fee indexes by `fee_rate × seconds` and brings the oven's
 * outstanding to the product index (`get_oven`), the collateral rule `15 tez < 16 × outstanding ×
 * target` and a liquidation's `32 × quantity × target / 31` tez. Its storage has every field of the real type
 * (trilitech/ctez build/ctez_2.tz @fd6cb11). Differences: the half dexes hold no liquidity (their fee rate is the
 * maximum, no events, empty metadata), no subsidy minting, a fixed target, no delegation or depositor lists.
 */
export class CtezOvens implements ContractModel {
  readonly role = 'ctez' as const;
  readonly service = 'lending';
  readonly code = script(
    entrypoints(
      ['mint_or_burn', pairT(tNat('%id'), tInt('%quantity'))],
      [
        'liquidate_oven',
        pairT(namedPairT('%handle', tNat('%id'), tAddress('%owner')), tNat('%quantity'), CONTRACT_UNIT),
      ],
      ['register_oven_deposit', pairT(namedPairT('%handle', tNat('%id'), tAddress('%owner')), tMutez('%amount'))],
      ['withdraw_from_oven', pairT(tNat('%id'), tMutez('%amount'), CONTRACT_UNIT)],
      ['create_oven', pairT(tNat('%id'), prim('option', [prim('key_hash')], ['%delegate']), DEPOSITORS)],
    ),
    pairT(
      tBigMap(HANDLE, OVEN, '%ovens'),
      tTimestamp('%last_update'),
      halfDex('%sell_ctez'),
      halfDex('%sell_tez'),
      namedPairT('%context', tNat('%target'), tInt('%drift'), tNat('%_Q'), tAddress('%ctez_fa12_address')),
      tNat('%last_event_id'),
      tBigMap(tString(), tBytes(), '%metadata'),
      tAddress('%originator'),
    ),
  );

  constructor(
    private readonly book: AccountBook,
    readonly address: string,
    readonly ctez: Fa12Token,
    private readonly errorPrefix: string,
  ) {}

  get state(): CtezState {
    return this.book.state<CtezState>(this.address);
  }

  /** Origination state; `last_update` is set by the first call (the model's stand-in for the deployment time). */
  init(diff: LazyStorageDiff, originator: string): void {
    this.book.setState<CtezState>(this.address, {
      ovens: diff.alloc(HANDLE, OVEN),
      sellCtezOwners: diff.alloc(tAddress(), LIQUIDITY_OWNER),
      sellTezOwners: diff.alloc(tAddress(), LIQUIDITY_OWNER),
      metadata: diff.alloc(tString(), tBytes()),
      originator,
      lastUpdate: 0n,
      feeCtez: ONE,
      feeTez: ONE,
    });
  }

  /** The storage, every field of the real type (written through the build's generated type). */
  storage(): Micheline {
    const s = this.state;
    const half = (liquidity_owners: number, fee_index: bigint) => ({
      liquidity_owners,
      total_liquidity_shares: 0n,
      self_reserves: 0n,
      proceeds_debts: 0n,
      proceeds_reserves: 0n,
      subsidy_debts: 0n,
      subsidy_reserves: 0n,
      fee_index,
    });
    return ctez2Code.storageValue.encode({
      ovens: s.ovens,
      last_update: new Date(Number(s.lastUpdate) * 1000),
      sell_ctez: half(s.sellCtezOwners, s.feeCtez),
      sell_tez: half(s.sellTezOwners, s.feeTez),
      context: { target: TARGET, drift: 0n, _Q: 1n, ctez_fa12_address: this.ctez.address },
      last_event_id: 0n,
      metadata: s.metadata,
      originator: s.originator,
    });
  }

  /** The fee index ovens are brought to: the product of the half dexes' (×2^128). */
  feeIndex(): bigint {
    return this.state.feeCtez * this.state.feeTez;
  }

  /** Every oven, in big map order. */
  ovens(): OvenEntry[] {
    const entries = this.book.bigMap(this.state.ovens)?.entries.values() ?? [];
    return [...entries].map((e) => readOven(e.key, e.value));
  }

  oven(id: bigint, owner: string): OvenEntry | undefined {
    const key = ovenHandleType.encode({ id, owner });
    const v = bigMapGet(this.book, this.state.ovens, key);
    return v === undefined ? undefined : readOven(key, v);
  }

  /** The oven as `get_oven` returns it now (the outstanding brought to the fee index); call after housekeeping. */
  current(id: bigint, owner: string): OvenEntry {
    const o = this.oven(id, owner);
    if (!o) throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('OVEN_NOT_EXISTS')));
    const index = this.feeIndex();
    const outstanding = (o.ctezOutstanding * index) / o.feeIndex;
    const feeIndex =
      o.ctezOutstanding > 0n ? (outstanding * o.feeIndex + o.ctezOutstanding - 1n) / o.ctezOutstanding : index;
    return { ...o, ctezOutstanding: outstanding, feeIndex };
  }

  /** Most ctez the oven may owe: `15 × tez ≥ 16 × outstanding × target`. */
  maxOutstanding(tezBalance: bigint): bigint {
    return ((15n * tezBalance) << 64n) / (16n * TARGET);
  }

  underCollateralized(o: OvenEntry): boolean {
    return 15n * o.tezBalance < 16n * mul(o.ctezOutstanding, TARGET);
  }

  /** Tez a liquidation of `quantity` ctez takes (`32 × quantity × target / 31`). */
  extracted(quantity: bigint): bigint {
    return mul(32n * quantity, TARGET) / 31n;
  }

  /** ctez 2's housekeeping, reduced: both fee indexes grow by the rate over the seconds since the last call. */
  housekeeping(call: CallContext): void {
    const s = this.state;
    const now = seconds(call);
    if (now === s.lastUpdate) return;
    const delta = s.lastUpdate === 0n ? 0n : now - s.lastUpdate;
    const grow = (f: bigint) => f + mul(delta * f, MAX_RATE);
    this.book.setState<CtezState>(this.address, {
      ...s,
      lastUpdate: now,
      feeCtez: grow(s.feeCtez),
      feeTez: grow(s.feeTez),
    });
  }

  /** `create_oven`: originates the oven with the tez sent (`transfer` holds the caller's payment). */
  create(
    call: CallContext,
    diff: LazyStorageDiff,
    contracts: ContractRegistry,
    user: string,
    id: bigint,
    amount: bigint,
    ovenAddress: string,
    transfer: BalanceUpdates,
  ): Micheline {
    this.housekeeping(call);
    if (this.oven(id, user))
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('OVEN_ALREADY_EXISTS')));
    const oven = new OvenContract(ovenAddress, this.address, id, user);
    const size = 1200n;
    this.book.createContract(ovenAddress, { code: oven.code, storage: oven.storage() }, undefined, size);
    contracts.addOriginated(this.book, oven, 'ctez oven');
    transfer.transfer(
      (b, c) => b.contract(user, c),
      (b, c) => b.contract(this.address, c),
      amount,
    );
    const moves = new BalanceUpdates(this.book).transfer(
      (b, c) => b.contract(this.address, c),
      (b, c) => b.contract(ovenAddress, c),
      amount,
    );
    const burn = new BalanceUpdates(this.book).transfer(
      (b, c) => b.contract(user, c),
      (b, c) => b.burned('storage fees', c),
      (size + 257n) * 250n,
    );
    call.internal.push({
      kind: 'origination',
      source: this.address,
      fields: { balance: String(amount), script: { code: oven.code, storage: oven.storage() } },
      result: {
        balance_updates: [...moves.items, ...burn.items],
        originated_contracts: [ovenAddress],
        consumed_milligas: '1500000',
        storage_size: String(size),
        paid_storage_size_diff: String(size),
      },
    });
    this.write(diff, {
      id,
      owner: user,
      tezBalance: amount,
      ctezOutstanding: 0n,
      address: ovenAddress,
      feeIndex: this.feeIndex(),
    });
    return ctez2Code.encodeCall('create_oven', { id, delegate: null, depositors: { any: null } });
  }

  /**
   * A deposit: the user paid the oven's `default`, the oven calls `register_oven_deposit` (an internal call with the
   * main contract's result).
   */
  deposit(call: CallContext, diff: LazyStorageDiff, o: OvenEntry, amount: bigint): void {
    this.housekeeping(call);
    const oven = this.current(o.id, o.owner);
    this.write(diff, { ...oven, tezBalance: oven.tezBalance + amount });
    call.pushCall(
      o.address,
      this,
      0n,
      'register_oven_deposit',
      ctez2Code.encodeCall('register_oven_deposit', { handle: { id: o.id, owner: o.owner }, amount }),
      call.contractResult(this, diff, 6000, 0),
    );
  }

  withdraw(call: CallContext, diff: LazyStorageDiff, user: string, id: bigint, amount: bigint, to: string): Micheline {
    this.housekeeping(call);
    const before = this.current(id, user);
    const oven = { ...before, tezBalance: before.tezBalance - amount };
    if (oven.tezBalance < 0n || this.underCollateralized(oven))
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('EXCESSIVE_TEZ_WITHDRAWAL')));
    this.write(diff, oven);
    this.payOut(call, oven.address, amount, to);
    return ctez2Code.encodeCall('withdraw_from_oven', { id, amount, to });
  }

  mintOrBurn(call: CallContext, diff: LazyStorageDiff, user: string, id: bigint, quantity: bigint): Micheline {
    this.housekeeping(call);
    const before = this.current(id, user);
    const oven = { ...before, ctezOutstanding: before.ctezOutstanding + quantity };
    if (oven.ctezOutstanding < 0n)
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('EXCESSIVE_CTEZ_BURNING')));
    if (this.underCollateralized(oven))
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('EXCESSIVE_CTEZ_MINTING')));
    this.write(diff, oven);
    this.ctez.mintOrBurn(call, this.address, user, quantity);
    return ctez2Code.encodeCall('mint_or_burn', { id, quantity });
  }

  liquidate(
    call: CallContext,
    diff: LazyStorageDiff,
    liquidator: string,
    id: bigint,
    owner: string,
    quantity: bigint,
    to: string,
  ): Micheline {
    this.housekeeping(call);
    const before = this.current(id, owner);
    if (!this.underCollateralized(before))
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('NOT_UNDERCOLLATERALIZED')));
    const taken = this.extracted(quantity);
    const oven = {
      ...before,
      ctezOutstanding: before.ctezOutstanding - quantity,
      tezBalance: before.tezBalance - taken,
    };
    if (oven.ctezOutstanding < 0n || oven.tezBalance < 0n)
      throw new ContentFailure(scriptRejected(this.errorPrefix, this.address, str('EXCESSIVE_CTEZ_BURNING')));
    this.write(diff, oven);
    this.ctez.mintOrBurn(call, this.address, liquidator, -quantity);
    this.payOut(call, oven.address, taken, to);
    return ctez2Code.encodeCall('liquidate_oven', { handle: { id, owner }, quantity, to });
  }

  /** The main contract orders the oven's `withdraw`; the oven sends the tez. */
  private payOut(call: CallContext, ovenAddress: string, amount: bigint, to: string): void {
    const storage = this.book.get(ovenAddress).script?.storage;
    call.internal.push({
      kind: 'transaction',
      source: this.address,
      fields: {
        amount: '0',
        destination: ovenAddress,
        parameters: { entrypoint: 'withdraw', value: pair(int(amount), str(to)) },
      },
      result: { storage, consumed_milligas: '1800000' },
    });
    call.pushTezTransfer(ovenAddress, to, amount);
  }

  private write(diff: LazyStorageDiff, o: OvenEntry): void {
    diff.update(
      this.state.ovens,
      ovenHandleType.encode({ id: o.id, owner: o.owner }),
      oven2Type.encode({
        tez_balance: o.tezBalance,
        ctez_outstanding: o.ctezOutstanding,
        address: o.address,
        fee_index: o.feeIndex,
      }),
    );
  }
}

/** An oven entry from its Micheline key and value, read with the build's types. */
function readOven(key: Micheline, value: Micheline): OvenEntry {
  const [h, o] = [ovenHandleType.decode(key), oven2Type.decode(value)];
  if (!h || !o) throw new Error('ctez model: an oven entry that does not fit the real types');
  return {
    id: h.id,
    owner: h.owner,
    tezBalance: o.tez_balance,
    ctezOutstanding: o.ctez_outstanding,
    address: o.address,
    feeIndex: o.fee_index,
  };
}
