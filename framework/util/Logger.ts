import pino from 'pino';

/** The subset of pino the code uses, so tests and embedders can pass any compatible logger. */
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export function createLogger(level = process.env.TZIDX_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

export const silentLogger: Logger = pino({ level: 'silent' });
