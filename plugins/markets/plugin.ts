import { PluginManifest, TzidxPlugin } from '../../framework';

/** XTZ tickers and OHLCV candles from centralized exchanges. Its tables are declared in tables.yaml under `markets`. */
export class MarketsPlugin implements TzidxPlugin {
  static readonly manifest: PluginManifest = {
    name: 'markets',
    description: 'XTZ tickers and OHLCV candles from centralized exchanges',
  };
}
