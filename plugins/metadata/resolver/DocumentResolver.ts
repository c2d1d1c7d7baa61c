import type { Knex } from 'knex';
import { asRecords, type Logger } from '../../../framework';
import type { ResolverSettings } from '../MetadataSettings';
import { dbRow, from, lockedNextRowId, PluginTables } from '../PluginTables';
import { DocumentFetcher } from './DocumentFetcher';

/** URIs fetched per round. */
const ROUND = 20;

/**
 * The background resolver: off-chain documents that contracts and tokens name (uri columns) but that
 * are not fetched yet, or failed and are due for a retry, are fetched and kept in metadata_documents
 * with their status. Failures back off exponentially and are given up after the configured attempts;
 * indexing never waits for it.
 */
export class DocumentResolver {
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly writer: Knex,
    private readonly tables: PluginTables,
    private readonly fetcher: DocumentFetcher,
    private readonly settings: Pick<ResolverSettings, 'attempts' | 'backoffMs'>,
    private readonly log: Logger,
  ) {}

  /** Starts a run unless one is going (then it runs once more after it); never rejects. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runAll()
      .then(() => undefined)
      .catch((e) => this.log.warn({ err: e }, 'metadata resolver round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits for the current run (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Fetches every due document; returns how many were attempted. */
  async runAll(now: () => Date = () => new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.due(now());
      if (due.length === 0) return total;
      for (const uri of due) await this.resolve(uri, now);
      total += due.length;
    }
  }

  private async due(now: Date): Promise<string[]> {
    const t = this.tables;
    const q = (d: typeof t.tokens): string => `"${d.schema}"."${d.storage}"`;
    const remote = `(uri like 'ipfs://%' or uri like 'http://%' or uri like 'https://%' or uri like 'sha256://%')`;
    const fresh = await this.writer.raw(
      `select uri from (select uri from ${q(t.contracts)} where ${remote} union select uri from ${q(t.tokens)} where ${remote}) u
       where not exists (select 1 from ${q(t.documents)} d where d.uri = u.uri) limit ?`,
      [ROUND],
    );
    const retries = await from(this.writer, t.documents)
      .select('uri')
      .where('status', t.documents.column('status')!.type.parse('error'))
      .whereNotNull('next_try_time')
      .where('next_try_time', '<=', now)
      .limit(ROUND);
    return [...asRecords(fresh.rows), ...retries].map((r) => String(r.uri)).slice(0, ROUND);
  }

  private async resolve(uri: string, now: () => Date): Promise<void> {
    const result = await this.fetcher.fetch(uri);
    const t = this.tables.documents;
    await this.writer.transaction(async (trx) => {
      const before = await from(trx, t).where('uri', uri).first();
      const attempts = Number(before?.attempts ?? 0) + 1;
      const retry = result.error !== undefined && attempts < this.settings.attempts;
      const row = {
        status: result.document ? 'ok' : 'error',
        content: result.document ?? null,
        error: result.error ?? null,
        attempts,
        fetched_time: now(),
        next_try_time: retry ? new Date(now().getTime() + this.settings.backoffMs * 2 ** (attempts - 1)) : null,
      };
      if (before) await from(trx, t).where('uri', uri).update(dbRow(t, row));
      else
        await trx
          .withSchema(t.schema)
          .table(t.storage)
          .insert(dbRow(t, { row_id: await lockedNextRowId(trx, t), uri, ...row }));
    });
    if (result.error) this.log.debug({ uri, error: result.error }, 'metadata document not resolved');
  }
}
