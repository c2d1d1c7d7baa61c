import { type AccountBook, type ContractRegistry, Fa12Token, type GenesisContext, KNOWN_ADDRESSES } from '../../../../framework/sandbox/extension';
import { CpmmPool } from '../cpmm/CpmmPool';
import { seedPool } from '../cpmm/seedPool';

/** Vortex's mainnet tez/kUSD pool; its LQT token gets a seed-derived address. */
export const VORTEX_KUSD = 'KT1Wjadao8AXkwNQmjstbPGtLd1ZrUyQEDX7';
const LQT_LABEL = 'vortex-kusd-lqt';
/** The pool's `reserve`, paid its share of the fee in tez: a keyless account (blake2b-160 of `vortex-reserve`). */
export const VORTEX_RESERVE = 'tz1Y3PNaCHuSTtxwaaHsbt5bQPqvK58uAhtM';

export function registerVortex(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const lqt = contracts.add(new Fa12Token(book, contracts.derivedAddress(LQT_LABEL), 'VORTEX-KUSD-LQT', 6, errorPrefix), 'Vortex tez/kUSD LQT');
  const pool = contracts.add(new CpmmPool(book, VORTEX_KUSD, 'vortex', contracts.require(KNOWN_ADDRESSES.kUSD), lqt, undefined, VORTEX_KUSD, VORTEX_RESERVE), 'Vortex tez/kUSD');
  contracts.addPaidStorageTarget(pool);
}

export const vortexPool = (contracts: ContractRegistry): CpmmPool => contracts.require(VORTEX_KUSD);

/** The LQT token first (the pool's seed mints it), then the pool with its reserves. */
export function seedVortex(g: GenesisContext): void {
  const lqt = g.contracts.require<Fa12Token>(g.contracts.derivedAddress(LQT_LABEL));
  g.originate(lqt, 0n, (diff) => lqt.init(diff));
  g.book.createKeyless(VORTEX_RESERVE);
  seedPool(g, vortexPool(g.contracts), 300_000n * 10n ** 18n, 250_000n * 1_000_000n, 200_000_000n, 250_000n * 1_000_000n);
}
