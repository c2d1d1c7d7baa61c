import type { DexAdapter } from '../core/DexAdapter';
import { dexterAdapter } from './dexter/adapter';
import { lbAdapter } from './lb/adapter';
import { plentyAdapter } from './plenty/adapter';
import { plentyStableAdapter } from './plenty-stable/adapter';
import { quipuswapAdapter } from './quipuswap/adapter';
import { quipuswapStableAdapter } from './quipuswap-stable/adapter';

/** Every DEX protocol adapter the plugin runs: one line per protocol folder. */
export const DEX_ADAPTERS: readonly DexAdapter[] = [lbAdapter, quipuswapAdapter, plentyAdapter, plentyStableAdapter, dexterAdapter, quipuswapStableAdapter];
