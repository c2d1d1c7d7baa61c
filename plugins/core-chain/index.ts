/**
 * What plugins that depend on core-chain (manifest `dependsOn: ['core-chain']`) may use of it: block
 * lookups by explorer id, its table readers, the op id rule and the account ids it leaves per block.
 * Everything else in this folder is core-chain's own.
 */
export { ACCOUNT_IDS } from './BlockRun';
export { opId } from './OpRows';
export { BlockLookup, type BlockRef } from './explorer/BlockLookup';
export { ChainTables } from './explorer/ChainTables';
export { OuterSigners } from './explorer/OuterSigners';
export { OperationLoader } from './explorer/OperationLoader';
export { OperationPages } from './explorer/OperationPages';
export { RightsSnapshotLag } from './explorer/RightsSnapshotLag';
/** Typed handles of core-chain's tables, for plugins that read them (`CatalogRows.of`). */
export { tables as coreChainTables } from './tables.generated';
