import { Histogram, Registry } from 'prom-client';

/**
 * How the API's reads share statements, for Prometheus (`/metrics`): an operator sees from it whether
 * concurrent requests' lookups are made together (`CatalogRows.batched`) or one by one.
 */
export class ReadMetrics {
  readonly registry = new Registry();
  /** Distinct keys per statement of a batched lookup; its count is the statements, its sum the keys. */
  readonly batchedKeys = new Histogram({
    name: 'tzidx_api_batched_lookup_keys',
    help: 'distinct keys read by one statement of a batched lookup (the lookups of concurrent requests made together), by table',
    labelNames: ['table'] as const,
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
}
