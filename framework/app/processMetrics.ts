import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * The process's own Prometheus series (resident memory, heap, GC, event-loop lag, CPU, handles): what
 * an operator watches an indexer's memory by. Collected once per process, since its collectors
 * (a GC observer, an event-loop histogram) are process-wide; apps of one process (tests) share them.
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
