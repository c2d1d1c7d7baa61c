import type { AccountBook, ContractRegistry, GenesisContext } from '../../../../../framework/sandbox/extension';
import { Fa12Token, KNOWN_ADDRESSES } from '../../../../../framework/sandbox/extension';
import { VortexPool } from './pool';
import { seedPool } from '../../../sim/cpmm/seedPool';

/** Vortex's mainnet tez/kUSD pool; its LQT token gets a seed-derived address. */
export const VORTEX_KUSD = 'KT1Wjadao8AXkwNQmjstbPGtLd1ZrUyQEDX7';
const LQT_LABEL = 'vortex-kusd-lqt';
/** The pool's `reserve`, paid its share of the fee in tez: a keyless account (blake2b-160 of `vortex-reserve`). */
export const VORTEX_RESERVE = 'tz1Y3PNaCHuSTtxwaaHsbt5bQPqvK58uAhtM';

export function registerVortex(contracts: ContractRegistry, book: AccountBook, errorPrefix: string): void {
  const lqtToken = new Fa12Token(book, contracts.derivedAddress(LQT_LABEL), 'VORTEX-KUSD-LQT', 6, errorPrefix);
  const lqt = contracts.add(lqtToken, 'Vortex tez/kUSD LQT');
  const kusd = contracts.require<Fa12Token>(KNOWN_ADDRESSES.kUSD);
  const model = new VortexPool(book, VORTEX_KUSD, kusd, lqt, VORTEX_RESERVE);
  const pool = contracts.add(model, 'Vortex tez/kUSD');
  contracts.addPaidStorageTarget(pool);
}

export const vortexPool = (contracts: ContractRegistry): VortexPool => contracts.require(VORTEX_KUSD);

/** The LQT token first (the pool mints it), then the pool, empty. */
export function seedVortex(g: GenesisContext): void {
  const lqt = g.contracts.require<Fa12Token>(g.contracts.derivedAddress(LQT_LABEL));
  g.originate(lqt, 0n, (diff) => lqt.init(diff));
  g.book.createKeyless(VORTEX_RESERVE);
  seedPool(g, vortexPool(g.contracts));
}
