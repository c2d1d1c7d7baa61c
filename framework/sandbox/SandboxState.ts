import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What rebuilds a served sandbox chain byte for byte after a restart: its parameters, its genesis time
 * and the live steps taken so far (a live step's bake-or-reorg draw is keyed by its number, so replaying
 * the same steps gives the same blocks and the same reorgs). Why: a demo restarted from scratch built
 * another chain (its history ends at the new start time), below the height its data directory had
 * indexed, and the indexer waited for it. Kept as one small JSON file, replaced atomically.
 */
export interface SandboxState {
  seed: string;
  profile: string;
  historyBlocks: number;
  reorgRate: number;
  reorgDepth: number;
  genesisTime: string;
  steps: number;
}

/** The parameters that must match for a stored chain to be continued (everything but time and steps). */
export type SandboxChainKey = Omit<SandboxState, 'genesisTime' | 'steps'>;

export class SandboxStateFile {
  constructor(readonly file: string) {}

  /** The stored state of a chain with these parameters; undefined when absent, unreadable or another chain's. */
  read(key: SandboxChainKey): SandboxState | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const stored = parsed as Partial<SandboxState>;
    const same = (Object.keys(key) as (keyof SandboxChainKey)[]).every((k) => stored[k] === key[k]);
    const time = typeof stored.genesisTime === 'string' && !Number.isNaN(Date.parse(stored.genesisTime));
    const steps = Number.isSafeInteger(stored.steps) && stored.steps! >= 0;
    return same && time && steps ? (stored as SandboxState) : undefined;
  }

  /** Written to a temporary file and renamed over the old one, so a crash leaves the old or the new state. */
  write(state: SandboxState): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(state));
    fs.renameSync(tmp, this.file);
  }
}
