/**
 * The part of a pino-compatible logger the chain layer writes to. The project's `util/Logger` (pino)
 * satisfies it, and so does any `{ warn(obj, msg) }` object a test or an embedder passes in.
 */
export interface ChainLogger {
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

/** Default logger: drops everything, so library use stays quiet unless a logger is injected. */
export const silentChainLogger: ChainLogger = { warn: () => undefined };
