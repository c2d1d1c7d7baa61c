/**
 * The framework's public surface: plugins (built-in and third-party) import only from here.
 */
import 'reflect-metadata';

export { TzidxApp, AppOptions } from './app/TzidxApp';
export { CONFIG, LOGGER } from './app/tokens';
export { Catalog } from './catalog/Catalog';
export { ReadOf, TableHandle, tableHandle } from './catalog/TableHandle';
export { CatalogError } from './catalog/CatalogError';
export type { CheckScope, ReconciliationCheck, Violation } from './check/Reconciliation';
export { ledgerChecks, LedgerSpec } from './check/LedgerChecks';
export { storageCheck, StorageReading, StorageSpec } from './check/StorageCheck';
export { movesCheck, MovesSpec, MoveLeg } from './check/MovesCheck';
export * from './catalog/CatalogModel';
export { column, table, ColumnOptions, TableOptions } from './catalog/decorators';
export { FilterName, withFilterNames } from './catalog/FilterNames';
export { ColumnType, Encoding, Operator, SqlValue, ValueError } from './catalog/types/ColumnType';
export { columnType } from './catalog/types/ColumnTypes';
export { EnumType } from './catalog/types/EnumType';
export { isValidAddress } from './catalog/types/AddressType';
export { fitsBigIntColumn } from './catalog/types/BigIntType';
export { mutezToTez, tezToMutez } from './catalog/types/MoneyType';
export { ConfigError, InstanceConfig, loadConfig } from './config/InstanceConfig';
export { ApiError, ErrorCode } from './errors/ApiError';
export { errorMessage } from './errors/errorMessage';
export { ChainState, FINAL_DEPTH } from './indexer/ChainState';
export { RouteRegistry, RouteHandler, CollectionOptions } from './http/RouteRegistry';
export { KeyResolver, RecordShaper, RouteShapers, TextRow } from './http/RouteShapers';
export { ObjectAnswer } from './http/ObjectResponder';
export { QueryParamDoc, RouteDoc, RouteInfo, WriteMethod } from './http/RouteDoc';
export { jsonBody, MAX_BODY_DEPTH } from './http/JsonBody';
export { StreamRecorder } from './stream/StreamRecorder';
export type { StreamEvent } from './stream/StreamLog';
export {
  BlockId,
  checked,
  missingOperation,
  OperationId,
  parseAddress,
  parseBlockId,
  parseOperationId,
  parseSequenceId,
} from './http/ResourceIds';
export { PluginClass, PluginContext, PluginContribution, PluginManifest, TzidxPlugin } from './plugins/Plugin';
export { discoverFolders, Named } from './plugins/FolderDiscovery';
export { EXPLORER_LIST_PROFILE, ListProfile, OBJECT_LIST_PROFILE, TABLE_PROFILE } from './query/ListProfile';
export { Filter, pathFilter, TableRequest } from './query/TableRequest';
export { parseTableRequest, QueryArgs } from './query/TableRequest';
export { applyFilters, lookUpKeys, RawRow, whereColumnIn } from './query/TableQueryEngine';
export { whereIndexedEquality } from './query/IndexedEquality';
export { columnSql, selectColumn } from './query/ColumnSql';
export { parseTime, rfc3339 } from './time/TimeExpression';
export { Collapse, COLLAPSE_CODES, CollapseCode, ROLLUP_LEVELS, RollupLevel } from './series/Collapse';
export { compileSeries, CompiledSeries, Measure } from './series/CompiledSeries';
export { SeriesQueryEngine, SeriesResult, SeriesSource, SpanRequest } from './series/SeriesQueryEngine';
export { fillGaps, FillShape, GapRule, measureGapRule } from './series/SeriesFill';
export {
  FillMode,
  FILL_MODES,
  parseSeriesRequest,
  SeriesRequest,
  SeriesWindow,
  SERIES_PROFILE,
} from './series/SeriesRequest';
export { RollupUpdateReport, SeriesRollups } from './series/SeriesRollups';
export { BulkWriter, Row } from './storage/BulkWriter';
export { Database } from './storage/Database';
export { Logger } from './util/Logger';
export { seededRandom } from './util/seededRandom';
export { bigOrZero } from './util/bigOrZero';
export * from './indexer/IndexContext';
export type { KnownCode } from './indexer/watch/KnownCode';
export { SharedKey, sharedKey, SharedValues } from './indexer/SharedValues';
export { BatchState, batchKey, carriedKey, StateKey } from './indexer/BatchState';
export type { RecomputeFn } from './indexer/DerivedTables';
export type { TableReader } from './indexer/TableReader';
export * from './indexer/groups/GroupPattern';
export { IndexerStatus } from './indexer/IndexerStatus';
export { UndecodableValues } from './indexer/UndecodableValues';
export type {
  BalanceUpdate,
  BigMapDiff,
  SaplingDiff,
  ContractEvent,
  NormalizedBlock,
  NormalizedOperation,
  TicketUpdate,
} from './chain';
export { clientOperationType, UNKNOWN_OPERATION_TYPE } from './chain';
export { snapshotLag } from './chain/model/snapshotLag';
export * from './chain/model/jsonRead';
export * from './michelson/Michelson';
export * from './michelson/MichelsonJson';
export * from './michelson/MichelsonTypes';
export * from './michelson/ContractCode';
export * from './explorer/CatalogRows';
export * from './explorer/TokenFacts';
export * from './explorer/ExplorerArgs';
export * from './extensions/AccountMetadata';
export * from './extensions/BlockRights';
export * from './extensions/CycleFigures';
export * from './extensions/MetadataImport';
export * from './explorer/ListPage';
export * from './explorer/explorerObject';
export { listQueryDoc, WITH_CLOSED } from './explorer/ListQueryDoc';
export * from './explorer/DeclaredRoutes';
export * from './explorer/zeroTime';
export * from './michelson/PlainValue';
export * from './michelson/ChainBytes';
export * from './michelson/ContractTypes';
export * from './michelson/PlainTypes';
export * from './michelson/PlainMicheline';
export * from './michelson/ScriptExpr';
