import pino, { type DestinationStream } from 'pino';
import { cutText } from './cutText';

/** The subset of pino the code uses, so tests and embedders can pass any compatible logger. */
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Longest text one field of a logged error or URL keeps. */
export const MAX_LOGGED_TEXT = 4096;

/** `destination`: where lines go (standard output by default; tests read them). */
export function createLogger(level = process.env.TZIDX_LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  // Errors and request URLs bounded: a failed request with a 2 MB URL or a long list must not log megabytes.
  const serializers = { err: (e: unknown) => bounded(pino.stdSerializers.err(e as Error)), url: bounded };
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, serializers }, destination);
}

/**
 * Each text cut to MAX_LOGGED_TEXT and said so with its length; objects (a serialized error and its
 * causes) field by field, arrays to their first items, four levels deep (a cycle ends there).
 */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutText(value, MAX_LOGGED_TEXT);
  if (value === null || typeof value !== 'object') return value;
  if (depth === 4) return '[…]';
  if (Array.isArray(value)) {
    return [
      ...value.slice(0, 10).map((v) => bounded(v, depth + 1)),
      ...(value.length > 10 ? [`… (${value.length} items)`] : []),
    ];
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, depth + 1)]));
}

export const silentLogger: Logger = pino({ level: 'silent' });
