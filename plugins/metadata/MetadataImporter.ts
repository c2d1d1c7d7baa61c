import * as fs from 'node:fs';
import { ApiError, ConfigError, errorMessage } from '../../framework';
import { Entry, MetadataEntries, parseEntry } from './MetadataEntries';
import { SchemaRegistry } from './SchemaRegistry';

/** Loads well-known entries (a JSON array, like a POST body) at start or with `tzidx metadata import FILE`. */
export class MetadataImporter {
  constructor(
    private readonly entries: MetadataEntries,
    private readonly schemas: SchemaRegistry,
  ) {}

  async importFile(file: string): Promise<number> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`metadata import ${file}: ${errorMessage(e)}`);
    }
    return this.import(parsed, file);
  }

  /** Validates every entry first (a bad one imports nothing), then stores them in one transaction. */
  async import(parsed: unknown, source: string): Promise<number> {
    if (!Array.isArray(parsed)) throw new ConfigError(`metadata import ${source}: expected a JSON array of entries`);
    let valid: Entry[];
    try {
      valid = parsed.map((e, i) => {
        const entry = parseEntry(e, `/${i}`);
        this.schemas.validate(entry, `/${i}`);
        return entry;
      });
    } catch (e) {
      throw new ConfigError(`metadata import ${source}: ${e instanceof ApiError ? e.detail : errorMessage(e)}`);
    }
    await this.entries.upsert(valid);
    return valid.length;
  }
}
