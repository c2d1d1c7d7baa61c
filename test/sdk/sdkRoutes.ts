/**
 * Which SDK struct decodes each route's answer (from the tzpro-go client functions that call it).
 * `{name}` placeholders are filled from the indexed chain by `SdkSamples`; routes other plugins add
 * (bakers, metadata, markets, DeFi) join by adding a line here (and a sampler if they need new ids).
 */
import type { FilledKeys } from './GoJsonDecoder';

export interface SdkObjectRoute {
  path: string;
  struct: string;
  /** The answer is a JSON array of the struct. */
  list?: boolean;
  /** The plugin that serves the route (skipped when it is not enabled). */
  plugin: string;
}

export const OBJECT_ROUTES: SdkObjectRoute[] = [
  { plugin: 'core-chain', path: '/explorer/status', struct: 'index.Status' },
  { plugin: 'core-chain', path: '/explorer/tip', struct: 'index.Tip' },
  { plugin: 'core-chain', path: '/explorer/protocols', struct: 'index.Deployment', list: true },
  { plugin: 'core-chain', path: '/explorer/config/head', struct: 'index.Config' },
  { plugin: 'core-chain', path: '/explorer/block/head', struct: 'index.Block' },
  { plugin: 'core-chain', path: '/explorer/block/{height}?meta=1&rights=1', struct: 'index.Block' },
  // The SDK's own query for a block's operations (BlockAPI.ListOps).
  { plugin: 'core-chain', path: '/explorer/block/{block}/operations?rights=1&meta=1', struct: 'index.Op', list: true },
  { plugin: 'core-chain', path: '/explorer/op/{op}?prim=1&storage=1&meta=1', struct: 'index.Op', list: true },
  { plugin: 'core-chain', path: '/explorer/account/{account}', struct: 'index.Account' },
  { plugin: 'core-chain', path: '/explorer/account/{account}/operations?verbose=1', struct: 'index.Op', list: true },
  { plugin: 'core-chain', path: '/explorer/account/{creator}/contracts', struct: 'index.Contract', list: true },
  { plugin: 'core-chain', path: '/explorer/contract/{contract}', struct: 'index.Contract' },
  { plugin: 'core-chain', path: '/explorer/contract/{contract}/script', struct: 'index.ContractScript' },
  { plugin: 'core-chain', path: '/explorer/contract/{contract}/storage', struct: 'index.ContractValue' },
  { plugin: 'core-chain', path: '/explorer/contract/{called}/calls?prim=1&storage=1', struct: 'index.Op', list: true },
  { plugin: 'core-chain', path: '/explorer/constant/{constant}', struct: 'index.Constant' },
  { plugin: 'governance', path: '/explorer/election/{election}', struct: 'index.Election' },
  {
    plugin: 'governance',
    path: '/explorer/election/{election}/{stage}/voters?limit=5000',
    struct: 'index.Voter',
    list: true,
  },
  {
    plugin: 'governance',
    path: '/explorer/election/{election}/{stage}/ballots?limit=5000',
    struct: 'index.Ballot',
    list: true,
  },
  { plugin: 'baking', path: '/explorer/bakers?limit=5', struct: 'index.Baker', list: true },
  { plugin: 'baking', path: '/explorer/bakers/{baker}?meta=1', struct: 'index.Baker' },
  // BakerAPI suggestions for a delegator: bakers with their capacities filled.
  { plugin: 'baking', path: '/explorer/bakers?suggest={delegator}', struct: 'index.Baker', list: true },
  { plugin: 'baking', path: '/explorer/bakers/{baker}/endorsements', struct: 'index.Op', list: true },
  { plugin: 'baking', path: '/explorer/bakers/{baker}/delegations', struct: 'index.Op', list: true },
  { plugin: 'baking', path: '/explorer/bakers/{baker}/snapshot/head', struct: 'index.Snapshot' },
  { plugin: 'baking', path: '/explorer/bakers/{baker}/income/head', struct: 'index.Income' },
  { plugin: 'baking', path: '/explorer/bakers/{baker}/rights/head', struct: 'index.Rights' },
  { plugin: 'governance', path: '/explorer/bakers/{voter}/votes', struct: 'index.Ballot', list: true },
  { plugin: 'bigmaps', path: '/explorer/bigmap/{bigmap}', struct: 'index.Bigmap' },
  {
    plugin: 'bigmaps',
    path: '/explorer/bigmap/{bigmap}/values?prim=1&meta=1',
    struct: 'index.BigmapValue',
    list: true,
  },
  { plugin: 'bigmaps', path: '/explorer/bigmap/{bigmapKey}?prim=1&meta=1', struct: 'index.BigmapValue' },
  {
    plugin: 'bigmaps',
    path: '/explorer/bigmap/{bigmap}/updates?prim=1&meta=1',
    struct: 'index.BigmapUpdate',
    list: true,
  },
  { plugin: 'bigmaps', path: '/explorer/bigmap/{bigmapKey}/updates', struct: 'index.BigmapUpdate', list: true },
  { plugin: 'defi-dex', path: '/v1/dex', struct: 'defi.Dex', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/{pool}', struct: 'defi.Dex' },
  { plugin: 'defi-dex', path: '/v1/dex/tickers', struct: 'defi.DexTicker', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/{pool}/ticker', struct: 'defi.DexTicker' },
  { plugin: 'defi-dex', path: '/v1/dex/events', struct: 'defi.DexEvent', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/{pool}/events', struct: 'defi.DexEvent', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/trades', struct: 'defi.DexTrade', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/{pool}/trades', struct: 'defi.DexTrade', list: true },
  { plugin: 'defi-dex', path: '/v1/dex/positions?with_closed=1', struct: 'defi.DexPosition', list: true },
  {
    plugin: 'defi-dex',
    path: '/v1/dex/{positionPool}/positions?with_closed=1',
    struct: 'defi.DexPosition',
    list: true,
  },
  { plugin: 'defi-dex', path: '/v1/wallets/{dexWallet}/dex_events', struct: 'defi.DexEvent', list: true },
  { plugin: 'defi-dex', path: '/v1/wallets/{dexWallet}/dex_trades', struct: 'defi.DexTrade', list: true },
  {
    plugin: 'defi-dex',
    path: '/v1/wallets/{dexWallet}/dex_positions?with_closed=1',
    struct: 'defi.DexPosition',
    list: true,
  },
  { plugin: 'defi-farm', path: '/v1/farm', struct: 'defi.Farm', list: true },
  { plugin: 'defi-farm', path: '/v1/farm/{farm}', struct: 'defi.Farm' },
  { plugin: 'defi-farm', path: '/v1/farm/events', struct: 'defi.FarmEvent', list: true },
  { plugin: 'defi-farm', path: '/v1/farm/{farm}/events', struct: 'defi.FarmEvent', list: true },
  { plugin: 'defi-farm', path: '/v1/farm/positions?with_closed=1', struct: 'defi.FarmPosition', list: true },
  {
    plugin: 'defi-farm',
    path: '/v1/farm/{positionFarm}/positions?with_closed=1',
    struct: 'defi.FarmPosition',
    list: true,
  },
  { plugin: 'defi-farm', path: '/v1/wallets/{farmWallet}/farm_events', struct: 'defi.FarmEvent', list: true },
  {
    plugin: 'defi-farm',
    path: '/v1/wallets/{farmWallet}/farm_positions?with_closed=1',
    struct: 'defi.FarmPosition',
    list: true,
  },
  { plugin: 'defi-lending', path: '/v1/lend', struct: 'defi.LendingPool', list: true },
  { plugin: 'defi-lending', path: '/v1/lend/{lendPool}', struct: 'defi.LendingPool' },
  { plugin: 'defi-lending', path: '/v1/lend/events', struct: 'defi.LendingEvent', list: true },
  { plugin: 'defi-lending', path: '/v1/lend/{lendPool}/events', struct: 'defi.LendingEvent', list: true },
  { plugin: 'defi-lending', path: '/v1/lend/positions?with_closed=1', struct: 'defi.LendingPosition', list: true },
  {
    plugin: 'defi-lending',
    path: '/v1/lend/{lendPool}/positions?with_closed=1',
    struct: 'defi.LendingPosition',
    list: true,
  },
  { plugin: 'defi-lending', path: '/v1/wallets/{lendWallet}/lend_events', struct: 'defi.LendingEvent', list: true },
  {
    plugin: 'defi-lending',
    path: '/v1/wallets/{lendWallet}/lend_positions?with_closed=1',
    struct: 'defi.LendingPosition',
    list: true,
  },
  { plugin: 'metadata', path: '/metadata', struct: 'index.Metadata', list: true },
  { plugin: 'metadata', path: '/metadata/{baker}', struct: 'index.Metadata' },
  { plugin: 'markets', path: '/markets/tickers', struct: 'market.Ticker', list: true },
  { plugin: 'markets', path: '/markets/{market}/ticker', struct: 'market.Ticker' },
];

/**
 * `/tables/{table}` the SDK's table client reads (NewTableQuery[*T](…, table)), with the struct it decodes rows into.
 */
export const TABLE_ROUTES: Array<{ table: string; struct: string }> = [
  { table: 'block', struct: 'index.Block' },
  { table: 'op', struct: 'index.Op' },
  { table: 'flow', struct: 'index.Flow' },
  { table: 'chain', struct: 'index.Chain' },
  { table: 'supply', struct: 'index.Supply' },
  { table: 'account', struct: 'index.Account' },
  { table: 'contract', struct: 'index.Contract' },
  { table: 'constant', struct: 'index.Constant' },
  { table: 'event', struct: 'index.Event' },
  { table: 'bigmaps', struct: 'index.Bigmap' },
  { table: 'bigmap_values', struct: 'index.BigmapValue' },
  { table: 'bigmap_updates', struct: 'index.BigmapUpdateRow' },
  { table: 'income', struct: 'index.Income' },
  { table: 'rights', struct: 'index.Rights' },
  { table: 'snapshot', struct: 'index.StakeSnapshot' },
];

/**
 * Candles: MarketAPI.ListCandles decodes `/series/{exchange}/{market}/ohlcv` rows with the columns it
 * asks for (client.DecodeSlice), like table rows; `{market}` is a SdkSamples placeholder.
 */
export const CANDLE_ROUTE = { path: '/series/{market}/ohlcv?collapse=1h', struct: 'market.Candle' };

/** Series decode like table rows: their columns are the table struct's (the SDK has no series client for these). */
export const SERIES_ROUTES: Array<{ series: string; struct: string }> = [
  { series: 'block', struct: 'index.Block' },
  { series: 'op', struct: 'index.Op' },
  { series: 'flow', struct: 'index.Flow' },
  { series: 'chain', struct: 'index.Chain' },
  { series: 'supply', struct: 'index.Supply' },
];

/**
 * Keys the original omits when empty although the SDK struct has no `omitempty` (Go decodes a missing
 * key as the zero value, so clients are fine): the op object's role, counter and hash keys are
 * "oe" in ../shared/reference/tzindex-api.md (Op object). Not `creator` and `baker`: the SDK's table
 * columns, which an answer always has (issue #51).
 */
export const OMITTED_WHEN_EMPTY: Record<string, readonly string[]> = {
  'index.Op': [
    'hash',
    'counter',
    'sender',
    'receiver',
    'previous_baker',
    'source',
    'accuser',
    'offender',
    'loser',
    'winner',
    'staker',
  ],
};

/** Known gaps other work closes, checked as soon as they are removed from here: none left. */
export const PENDING: Record<string, readonly string[]> = {};

/**
 * Keys the DeFi records fill on every answer (issue #53): the position id on every event and position,
 * token addresses tzgo decodes (tez included), and a creator that is an address or null, never "".
 */
export const FILLED: Record<string, FilledKeys> = {
  'defi.Farm': { named: ['creator'] },
  'defi.FarmEvent': { set: ['stake_id', 'stake_token', 'reward_token'] },
  'defi.FarmPosition': { set: ['stake_id', 'stake_token', 'reward_token'] },
  'defi.LendingPool': { named: ['creator'] },
  'defi.LendingEvent': { set: ['stake_id', 'debt_token', 'collateral_token'] },
  'defi.LendingPosition': { set: ['stake_id', 'debt_token', 'collateral_token'] },
};
