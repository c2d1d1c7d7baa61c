import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { asArray, asInt, asString, isRecord } from '../model/jsonRead';
import { silentChainLogger, type ChainLogger } from '../support/ChainLogger';
import type { BlockRef } from './BlockSource';
import { BlockSourceError } from './BlockSourceError';
import { selectCanonicalChain } from './canonicalChain';

/** A recorded block file and the block it holds. */
export interface ArchiveEntry extends BlockRef {
  file: string;
}

export interface ArchiveScanOptions {
  /** Descend into sub-folders. Default true. */
  recursive?: boolean;
  fromLevel?: number;
  toLevel?: number;
  logger?: ChainLogger;
}

/** The block reference of a parsed JSON value, or undefined when it is not a full block. */
export function blockRefOf(value: unknown): BlockRef | undefined {
  if (!isRecord(value) || typeof value.hash !== 'string' || !isRecord(value.header)) return undefined;
  const level = asInt(value.header.level);
  const predecessor = asString(value.header.predecessor);
  if (level === undefined || predecessor === undefined) return undefined;
  return {
    hash: value.hash,
    level,
    predecessor,
    timestamp: asString(value.header.timestamp),
    fitness: asArray(value.header.fitness).filter((f): f is string => typeof f === 'string'),
  };
}

async function listJsonFiles(dir: string, recursive: boolean): Promise<string[]> {
  const out: string[] = [];
  const walk = async (current: string): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      const info = entry.isSymbolicLink() ? await stat(full) : entry;
      if (info.isDirectory()) {
        if (recursive) await walk(full);
      } else if (info.isFile() && entry.name.toLowerCase().endsWith('.json')) {
        out.push(full);
      }
    }
  };
  await walk(dir);
  return out.sort();
}

/**
 * Every block file of an archive folder, addressable by hash, plus the canonical block per level
 * (see `selectCanonicalChain`). File names do not matter: blocks are ordered by `header.level`.
 * Files that are not full blocks (or not valid JSON) are skipped with a warning.
 */
export class ArchiveIndex {
  private readonly byHash = new Map<string, ArchiveEntry>();
  private readonly canonical: Map<number, ArchiveEntry>;
  /** Canonical levels, ascending. */
  readonly levels: readonly number[];

  constructor(entries: readonly ArchiveEntry[]) {
    for (const entry of entries) this.byHash.set(entry.hash, entry);
    this.canonical = selectCanonicalChain([...this.byHash.values()]);
    this.levels = [...this.canonical.keys()].sort((a, b) => a - b);
  }

  static async scan(dir: string, options: ArchiveScanOptions = {}): Promise<ArchiveIndex> {
    const logger = options.logger ?? silentChainLogger;
    let files: string[];
    try {
      files = await listJsonFiles(dir, options.recursive ?? true);
    } catch (err) {
      throw new BlockSourceError(`cannot read archive folder ${dir}: ${(err as Error).message}`);
    }
    const entries: ArchiveEntry[] = [];
    for (const file of files) {
      let ref: BlockRef | undefined;
      try {
        ref = blockRefOf(JSON.parse(await readFile(file, 'utf8')));
      } catch (err) {
        logger.warn({ file, error: (err as Error).message }, 'archive: skipping unreadable file');
        continue;
      }
      if (ref === undefined) {
        logger.warn({ file }, 'archive: skipping file that is not a full block (no hash/header.level/predecessor)');
        continue;
      }
      if (options.fromLevel !== undefined && ref.level < options.fromLevel) continue;
      if (options.toLevel !== undefined && ref.level > options.toLevel) continue;
      entries.push({ ...ref, file });
    }
    return new ArchiveIndex(entries);
  }

  get head(): ArchiveEntry | undefined {
    const top = this.levels[this.levels.length - 1];
    return top === undefined ? undefined : this.canonical.get(top);
  }

  canonicalAt(level: number): ArchiveEntry | undefined {
    return this.canonical.get(level);
  }

  entry(hash: string): ArchiveEntry | undefined {
    return this.byHash.get(hash);
  }

  /** All recorded blocks at a level (several when the archive holds branches). */
  branchesAt(level: number): ArchiveEntry[] {
    return [...this.byHash.values()].filter((e) => e.level === level);
  }

  /** First canonical level above `after`. */
  nextLevel(after: number): number | undefined {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.levels[mid] <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.levels[lo];
  }
}
