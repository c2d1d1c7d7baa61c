/**
 * The framework's public surface: plugins (built-in and third-party) import only from here.
 */
import 'reflect-metadata';

export { TzidxApp, AppOptions } from './app/TzidxApp';
export { CONFIG, LOGGER } from './app/tokens';
export { Catalog } from './catalog/Catalog';
export { CatalogError } from './catalog/CatalogError';
export * from './catalog/CatalogModel';
export { column, table, ColumnOptions, TableOptions } from './catalog/decorators';
export { ColumnType, Encoding, Operator, SqlValue, ValueError } from './catalog/types/ColumnType';
export { columnType } from './catalog/types/ColumnTypes';
export { mutezToTez, tezToMutez } from './catalog/types/MoneyType';
export { InstanceConfig, loadConfig } from './config/InstanceConfig';
export { ApiError, ErrorCode } from './http/ApiError';
export { ChainState } from './http/ChainState';
export { RouteRegistry, RouteHandler, CollectionOptions } from './http/RouteRegistry';
export { PluginClass, PluginContext, PluginManifest, TzidxPlugin } from './plugins/Plugin';
export { ListProfile, OBJECT_LIST_PROFILE, TABLE_PROFILE } from './query/ListProfile';
export { Filter, pathFilter, TableRequest } from './query/TableRequest';
export { parseTime } from './query/TimeExpression';
export { BulkWriter, Row } from './storage/BulkWriter';
export { Database } from './storage/Database';
export { Logger } from './util/Logger';
export * from './indexer/IndexContext';
export type {
  BalanceUpdate,
  BigMapDiff,
  ContractEvent,
  NormalizedBlock,
  NormalizedOperation,
  TicketUpdate,
} from './chain';
