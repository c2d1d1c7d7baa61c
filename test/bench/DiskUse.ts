import { Client } from 'pg';

/**
 * Tables whose size does not grow with the chain: the journal of the blocks a reorg can reach (64) and
 * the stream's last 50,000 events. Their share per operation shrinks as the chain grows.
 */
const BOUNDED = new Set(['tzidx.journal', 'tzidx.stream_events']);

/**
 * What an instance's data takes on a Postgres server: every table of its own schemas with its indexes
 * and TOAST (the journal and framework tables included; the system catalogs and the indexer's
 * temporary staging tables not), the biggest tables by name with heap and index bytes apart, and
 * the biggest table's indexes one by one (what each costs is what it must be worth to a query).
 * `bounded`: the part of it in tables that do not grow with the chain.
 */
export async function diskUse(databaseUrl: string): Promise<{ bytes: number; bounded: number; summary: string }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; total: string; heap: string; indexes: string }>(`
      select n.nspname || '.' || c.relname as name, pg_total_relation_size(c.oid) as total,
             pg_relation_size(c.oid) as heap, pg_indexes_size(c.oid) as indexes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
       order by pg_total_relation_size(c.oid) desc`);
    const bytes = rows.reduce((n, r) => n + Number(r.total), 0);
    const bounded = rows.filter((r) => BOUNDED.has(r.name)).reduce((n, r) => n + Number(r.total), 0);
    const top = rows.slice(0, 5).map((r) => `${r.name} ${mb(r.total)} (heap ${mb(r.heap)}, ${mb(r.indexes)} indexes)`);
    const ix = await client.query<{ name: string; bytes: string }>(
      `select c.relname as name, pg_relation_size(c.oid) as bytes from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = $1::regclass order by pg_relation_size(c.oid) desc`,
      [rows[0].name],
    );
    const indexes = ix.rows.map((r) => `${r.name} ${mb(r.bytes)}`).join(', ');
    return { bytes, bounded, summary: `${mb(bytes)} in ${rows.length} tables, ${top.join(', ')}; ${rows[0].name}'s indexes: ${indexes}` };
  } finally {
    await client.end();
  }
}

function mb(bytes: number | string): string {
  return `${(Number(bytes) / 1e6).toFixed(1)} MB`;
}
