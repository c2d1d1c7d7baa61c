import type { ServerResponse } from 'node:http';
import { seededRandom } from '../../framework/util/seededRandom';

/** The RPC failures a node (or what stands between it and the indexer) produces. */
export const FAULT_KINDS = ['http500', 'timeout', 'reset', 'truncated'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** An injected `http500`: status 500 with a body in the shape of a node's error list. */
export function answerHttp500(res: ServerResponse): void {
  res
    .writeHead(500, { 'content-type': 'application/json' })
    .end(JSON.stringify([{ kind: 'temporary', id: 'proxy.injected_fault' }]));
}

/** Fault counts per kind, all zero. */
export function noFaults(): Record<FaultKind, number> {
  return { http500: 0, timeout: 0, reset: 0, truncated: 0 };
}

/**
 * Decides which requests fail, and how: a seeded draw with probability `rate` picks the requests, and
 * the kinds come in turn, so they are evenly spread and a handful of faults already covers them all.
 */
export class FaultSchedule {
  private readonly random: () => number;
  private turn = 0;

  constructor(
    seed: number,
    private readonly rate: number,
    private readonly kinds: readonly FaultKind[] = FAULT_KINDS,
  ) {
    this.random = seededRandom(seed);
  }

  /** The fault for the next request, undefined to let it through. */
  next(): FaultKind | undefined {
    return this.random() < this.rate ? this.kinds[this.turn++ % this.kinds.length] : undefined;
  }
}
