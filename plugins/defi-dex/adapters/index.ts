import type { DexAdapter } from '../core/DexAdapter';
import { dexterAdapter } from './dexter/adapter';
import { lbAdapter } from './lb/adapter';
import { plentyAdapter } from './plenty/adapter';
import { plentyStableAdapter } from './plenty-stable/adapter';
import { quipuswapAdapter } from './quipuswap/adapter';
import { quipuswapStableAdapter } from './quipuswap-stable/adapter';
import { quipuswapV2Adapter } from './quipuswap-v2/adapter';
import { quipuswapV3Adapter } from './quipuswap-v3/adapter';
import { spicyAdapter } from './spicy/adapter';
import { vortexAdapter } from './vortex/adapter';
import { youvesFlatAdapter } from './youves-flat/adapter';

/** Every DEX protocol adapter the plugin runs: one line per protocol folder. */
export const DEX_ADAPTERS: readonly DexAdapter[] = [
  lbAdapter,
  quipuswapAdapter,
  plentyAdapter,
  plentyStableAdapter,
  dexterAdapter,
  quipuswapV3Adapter,
  vortexAdapter,
  youvesFlatAdapter,
  spicyAdapter,
  quipuswapV2Adapter,
  quipuswapStableAdapter,
];
