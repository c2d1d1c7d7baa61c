/** An invalid catalog: `path` points at the bad entry (JSON pointer into tables.yaml or a decorator). */
export class CatalogError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly source = 'tables.yaml',
  ) {
    super(`invalid catalog ${source} at ${path || '/'}: ${reason}`);
    this.name = 'CatalogError';
  }
}
