/**
 * Injection token of the metadata plugin's importer (registered only when that plugin is enabled):
 * validates entries like `POST /metadata` and stores them; `source` names them in error messages.
 * The CLI (`tzidx metadata import`, the sandbox demo) reaches the plugin through it.
 */
export const METADATA_IMPORT = Symbol.for('tzidx.MetadataImport');
export type MetadataImport = (entries: unknown, source: string) => Promise<number>;
