import type { FarmAdapter } from '../core/FarmAdapter';
import { plentyFarmAdapter } from './plenty/adapter';
import { quipuswapFarmAdapter } from './quipuswap/adapter';
import { youvesSavingsAdapter } from './youves/adapter';

/** Every farm protocol adapter the plugin runs: one line per protocol folder. */
export const FARM_ADAPTERS: readonly FarmAdapter[] = [plentyFarmAdapter, quipuswapFarmAdapter, youvesSavingsAdapter];
