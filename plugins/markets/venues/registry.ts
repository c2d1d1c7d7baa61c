import { ExchangeAdapter } from './Adapter';
import { binance } from './binance';
import { bitfinex } from './bitfinex';
import { bitstamp } from './bitstamp';
import { bitvavo } from './bitvavo';
import { coinbase } from './coinbase';
import { gate } from './gate';
import { htx } from './htx';
import { kraken } from './kraken';
import { kucoin } from './kucoin';
import { okx } from './okx';
import { upbit } from './upbit';

/** Every venue the plugin knows, one line each. */
export const ADAPTERS: readonly ExchangeAdapter[] = [
  kraken,
  coinbase,
  binance,
  bitfinex,
  bitstamp,
  okx,
  gate,
  htx,
  kucoin,
  bitvavo,
  upbit,
];
