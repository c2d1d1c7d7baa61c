/**
 * What other plugins may use of markets: the XTZ price oracle (resolve `PriceOracle` from the
 * container; the plugin must be enabled, e.g. `dependsOn: ['markets']`).
 */
export { FiatCurrency, OraclePrice, PriceOracle } from './oracle/PriceOracle';
