import { Client } from 'pg';

/**
 * Tables whose size does not grow with the chain: the journal of the blocks a reorg can reach (64) and
 * the stream's last 50,000 events. Their share per operation shrinks as the chain grows.
 */
export const BOUNDED = new Set(['tzidx.journal', 'tzidx.stream_events']);

/** One table's bytes on disk: its heap, its indexes, the rest (TOAST, free space and visibility maps). */
export interface TableSize {
  heap: number;
  indexes: number;
  other: number;
  rows: number;
}

/** What an instance's data takes at one moment, by table and by index (`schema.name`). */
export interface DiskSnapshot {
  bytes: number;
  bounded: number;
  tables: Map<string, TableSize>;
  indexes: Map<string, { table: string; bytes: number }>;
}

/**
 * What an instance's data takes on a Postgres server: every table of its own schemas with its indexes
 * and TOAST (the journal and framework tables included; the system catalogs and the indexer's
 * temporary staging tables not), each table's heap and indexes apart (pg_relation_size,
 * pg_indexes_size) with its live rows counted, and each index's own size.
 */
export async function diskSnapshot(databaseUrl: string): Promise<DiskSnapshot> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const own = `n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;
    // A partitioned table's partitions (HeightPartitions) count as the table, their indexes as its.
    const root = (rel: string) => `(select rn.nspname || '.' || r.relname from pg_class r
      join pg_namespace rn on rn.oid = r.relnamespace where r.oid = coalesce(pg_partition_root(${rel}), ${rel}))`;
    const { rows } = await client.query<{ name: string; total: string; heap: string; indexes: string }>(`
      select ${root('c.oid')} as name, sum(pg_total_relation_size(c.oid)) as total,
             sum(pg_relation_size(c.oid)) as heap, sum(pg_indexes_size(c.oid)) as indexes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'm') and ${own} group by 1`);
    const tables = new Map<string, TableSize>();
    for (const r of rows) {
      const [schema, table] = r.name.split('.');
      const count = await client.query<{ n: string }>(`select count(*) as n from "${schema}"."${table}"`);
      const heap = Number(r.heap);
      const indexes = Number(r.indexes);
      tables.set(r.name, { heap, indexes, other: Number(r.total) - heap - indexes, rows: Number(count.rows[0].n) });
    }
    const ix = await client.query<{ name: string; table: string; bytes: string }>(`
      select ${root('c.oid')} as name, ${root('t.oid')} as table, sum(pg_relation_size(c.oid)) as bytes
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_class t on t.oid = i.indrelid
       where ${own} group by 1, 2`);
    const total = (t: TableSize) => t.heap + t.indexes + t.other;
    return {
      bytes: [...tables.values()].reduce((n, t) => n + total(t), 0),
      bounded: [...BOUNDED].reduce((n, name) => n + (tables.has(name) ? total(tables.get(name)!) : 0), 0),
      tables,
      indexes: new Map(ix.rows.map((r) => [r.name, { table: r.table, bytes: Number(r.bytes) }])),
    };
  } finally {
    await client.end();
  }
}

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
