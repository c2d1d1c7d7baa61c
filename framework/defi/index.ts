/**
 * The DeFi core: what the DEX, farm and lending plugins share (token naming and facts, pool and position
 * keys, decimal text and USD prices, the two-sided pool book and records, pool call decoding, position
 * read-ahead), built on framework/index.ts only. The DeFi plugins' one way in (docs/architecture.md).
 */
export * from './ContractCreator';
export * from './Decimal';
export * from './DefiAdapter';
export * from './DefiPlugin';
export * from './DexTable';
export * from './DexTokens';
export * from './marginalAmounts';
export * from './MarketUsdQuotes';
export * from './PoolCall';
export * from './PoolRecorder';
export * from './PoolRecords';
export * from './PositionKey';
export * from './PositionReadAhead';
export * from './SidedPoolBook';
export * from './SidedRecords';
export * from './SidedRoutes';
export * from './TokenBook';
export * from './UsdPrices';
export * from './UsdQuotes';
