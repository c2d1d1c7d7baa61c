import { Quote } from '../Records';

/**
 * Every venue's spelling of an XTZ market, in one place: the separator, the letter case, a prefix,
 * whether the quote comes first, and the venue's own asset codes (Kraken's XBT for BTC, Bitfinex's
 * UST for USDT).
 */
interface SymbolStyle {
  readonly separator: string;
  readonly lower?: boolean;
  readonly prefix?: string;
  readonly quoteFirst?: boolean;
  readonly assets?: Readonly<Partial<Record<Quote | 'XTZ', string>>>;
}

const STYLES: Readonly<Record<string, SymbolStyle>> = {
  kraken: { separator: '', assets: { BTC: 'XBT' } },
  coinbasepro: { separator: '-' },
  binance: { separator: '' },
  bitfinex: { separator: '', prefix: 't', assets: { USDT: 'UST' } },
  bitstamp: { separator: '', lower: true },
  okex: { separator: '-' },
  gateio: { separator: '_' },
  huobi: { separator: '', lower: true },
  kucoin: { separator: '-' },
  bitvavo: { separator: '-' },
  upbit: { separator: '-', quoteFirst: true },
};

/** The venue's symbol of XTZ against `quote`, e.g. kraken XTZXBT, bitfinex tXTZUST, upbit BTC-XTZ. */
export function venueSymbol(exchange: string, quote: Quote): string {
  const style = STYLES[exchange];
  if (!style) throw new Error(`no symbol style for exchange '${exchange}'`);
  const asset = (a: Quote | 'XTZ'): string => style.assets?.[a] ?? a;
  const [first, second] = style.quoteFirst ? [asset(quote), asset('XTZ')] : [asset('XTZ'), asset(quote)];
  const symbol = `${style.prefix ?? ''}${first}${style.separator}${second}`;
  return style.lower ? symbol.toLowerCase() : symbol;
}
