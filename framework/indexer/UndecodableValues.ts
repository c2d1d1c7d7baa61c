import { Counter } from 'prom-client';
import { fitsBigIntColumn } from '../catalog/types/BigIntType';
import type { Logger } from '../util/Logger';
import type { IndexerStatus } from './IndexerStatus';

/**
 * Why: no value found on chain may stop indexing. A handler that meets a value it cannot decode or
 * store (bytes that are no text, an integer past its column, a document Postgres refuses) keeps a
 * null or raw field, goes on, and says so here: a warning and `tzidx_undecodable_values_total`.
 */
export class UndecodableValues {
  private readonly counter: Counter<'plugin' | 'kind'>;

  constructor(
    status: IndexerStatus,
    private readonly log: Logger,
  ) {
    this.counter = new Counter({
      name: 'tzidx_undecodable_values_total',
      help: 'chain values a plugin could not decode or store, kept as null or raw, by plugin and kind',
      labelNames: ['plugin', 'kind'],
      registers: [status.registry],
    });
  }

  record(plugin: string, kind: string, detail: Record<string, unknown>): void {
    this.counter.inc({ plugin, kind });
    this.log.warn({ plugin, kind, ...detail }, 'chain value not decodable: kept as null or raw');
  }

  /**
   * `target` whose write methods (named, with the positions of the arguments that carry chain amounts) are
   * skipped and recorded as `integer_overflow` when one of those arguments holds an integer that no `bigint`
   * column stores (a token's unbounded nat past 78 digits): the record would fail the batch's insert.
   */
  guardIntegers<T extends object>(
    plugin: string,
    target: T,
    writes: { readonly [K in keyof T]?: readonly number[] },
  ): T {
    return new Proxy(target, {
      get: (t, prop, receiver) => {
        const v: unknown = Reflect.get(t, prop, receiver);
        const checked = (writes as Record<string | symbol, readonly number[] | undefined>)[prop];
        if (!checked || typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          const big = checked.map((i) => oversized(args[i])).find((x) => x !== undefined);
          if (big === undefined) return v.apply(t, args);
          this.record(plugin, 'integer_overflow', {
            call: String(prop),
            digits: big.toString().replace('-', '').length,
          });
          return Promise.resolve(undefined);
        };
      },
    });
  }
}

/** The first integer in a value (plain objects and arrays, a few levels deep) that no bigint column holds. */
function oversized(v: unknown, depth = 0): bigint | undefined {
  if (typeof v === 'bigint') return fitsBigIntColumn(v) ? undefined : v;
  if (depth > 4 || v === null || typeof v !== 'object') return undefined;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    const big = oversized(x, depth + 1);
    if (big !== undefined) return big;
  }
  return undefined;
}
