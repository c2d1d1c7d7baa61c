/**
 * What other plugins may use of markets: the XTZ price oracle (name `PriceOracle` in a plugin's
 * constructor; the plugin must be enabled, e.g. `dependsOn: ['markets']`).
 */
export { FiatCurrency, OraclePrice, PriceOracle } from './oracle/PriceOracle';
