/** Injection tokens for values that are not classes. */
export const CONFIG = Symbol.for('tzidx.InstanceConfig');
export const LOGGER = Symbol.for('tzidx.Logger');
/**
 * Injection token of the metadata plugin's importer (registered only when that plugin is enabled):
 * validates entries like `POST /metadata` and stores them; `source` names them in error messages.
 */
export const METADATA_IMPORT = Symbol.for('tzidx.MetadataImport');
export type MetadataImport = (entries: unknown, source: string) => Promise<number>;
