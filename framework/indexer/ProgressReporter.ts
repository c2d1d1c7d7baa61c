import { Logger } from '../util/Logger';
import { IndexerStatus } from './IndexerStatus';

/**
 * Shows indexing progress: a redrawn bar with blocks/s, ops/s and ETA on a terminal, one log line per
 * interval otherwise (services, CI), so operators see a stalled indexer without polling the API.
 */
export class ProgressReporter {
  private timer?: NodeJS.Timeout;
  private last = { at: Date.now(), blocks: 0, ops: 0 };

  constructor(
    private readonly status: IndexerStatus,
    private readonly log: Logger,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = stream.isTTY ? 1000 : 10_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.report(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.stream.isTTY) this.stream.write('\n');
  }

  /** One report: rates over the last interval; exposed for tests. */
  line(now = Date.now()): string {
    const s = this.status;
    const secs = Math.max((now - this.last.at) / 1000, 1e-3);
    const bps = (s.totalBlocks - this.last.blocks) / secs;
    const ops = (s.totalOps - this.last.ops) / secs;
    this.last = { at: now, blocks: s.totalBlocks, ops: s.totalOps };
    const left = Math.max(0, s.blocks - s.indexed);
    const eta = bps > 0 ? formatDuration(left / bps) : '–';
    const pct = (s.progress * 100).toFixed(1);
    return `${s.status} ${pct}% ${s.indexed}/${s.blocks}  ${bps.toFixed(1)} blocks/s  ${Math.round(ops)} ops/s  ETA ${eta}`;
  }

  private report(): void {
    const text = this.line();
    if (this.stream.isTTY) {
      const width = 24;
      const filled = Math.round(this.status.progress * width);
      this.stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}\x1b[K`);
    } else {
      this.log.info({ status: this.status.status, indexed: this.status.indexed, head: this.status.blocks }, text);
    }
  }
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60}s`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}
