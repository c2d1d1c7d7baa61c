import { readFile } from 'node:fs/promises';
import type { RawBlock } from '../model/RawBlock';
import type { ChainLogger } from '../support/ChainLogger';
import { ArchiveIndex, blockRefOf, type ArchiveEntry } from './ArchiveIndex';
import type { BlockRef, BlockSource } from './BlockSource';
import { BlockSourceError } from './BlockSourceError';

export interface ArchiveBlockSourceOptions {
  /** Ignore blocks below this level. */
  fromLevel?: number;
  /** Ignore blocks above this level. */
  toLevel?: number;
  /** Scan sub-folders too. Default true. */
  recursive?: boolean;
  logger?: ChainLogger;
}

function toRef(entry: ArchiveEntry): BlockRef {
  const { file: _file, ...ref } = entry;
  return ref;
}

/**
 * Blocks recorded as full-block JSON files (`GET /chains/main/blocks/{id}` answers) in a folder,
 * any file names, sub-folders included by default. Served in `header.level` order; several files
 * at one level are branches (see `ArchiveIndex`). A finite source: `heads()` yields the archive's
 * head once and ends.
 */
export class ArchiveBlockSource implements BlockSource {
  readonly kind = 'archive' as const;
  readonly live = false;
  private indexed?: Promise<ArchiveIndex>;

  constructor(
    readonly directory: string,
    private readonly options: ArchiveBlockSourceOptions = {},
  ) {
    const { fromLevel, toLevel } = options;
    if (fromLevel !== undefined && toLevel !== undefined && fromLevel > toLevel) {
      throw new BlockSourceError(`archive range is empty: fromLevel ${fromLevel} > toLevel ${toLevel}`);
    }
  }

  /** A source with its folder already scanned (scan errors surface here). */
  static async open(directory: string, options: ArchiveBlockSourceOptions = {}): Promise<ArchiveBlockSource> {
    const source = new ArchiveBlockSource(directory, options);
    await source.index();
    return source;
  }

  /** The scanned folder (scanned once, on first use). */
  index(): Promise<ArchiveIndex> {
    this.indexed ??= ArchiveIndex.scan(this.directory, this.options);
    return this.indexed;
  }

  async head(): Promise<BlockRef> {
    const head = (await this.index()).head;
    if (head === undefined)
      throw new BlockSourceError(`archive ${this.directory} holds no blocks in the requested range`);
    return toRef(head);
  }

  async firstLevel(): Promise<number> {
    const first = (await this.index()).levels[0];
    if (first === undefined)
      throw new BlockSourceError(`archive ${this.directory} holds no blocks in the requested range`);
    return first;
  }

  async nextLevel(after: number): Promise<number | undefined> {
    return (await this.index()).nextLevel(after);
  }

  async blockAt(level: number): Promise<RawBlock | undefined> {
    const entry = (await this.index()).canonicalAt(level);
    return entry === undefined ? undefined : this.read(entry);
  }

  async blockByHash(hash: string): Promise<RawBlock | undefined> {
    const entry = (await this.index()).entry(hash);
    return entry === undefined ? undefined : this.read(entry);
  }

  async *heads(): AsyncIterable<BlockRef> {
    const head = (await this.index()).head;
    if (head !== undefined) yield toRef(head);
  }

  async close(): Promise<void> {
    // Files are read on demand; nothing stays open.
  }

  private async read(entry: ArchiveEntry): Promise<RawBlock> {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(entry.file, 'utf8'));
    } catch (err) {
      throw new BlockSourceError(`cannot read block file ${entry.file}: ${(err as Error).message}`);
    }
    if (blockRefOf(value)?.hash !== entry.hash) {
      throw new BlockSourceError(`block file ${entry.file} changed since the archive was scanned`);
    }
    return value as RawBlock;
  }
}
