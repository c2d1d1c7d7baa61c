import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from '../../framework/config/InstanceConfig';
import { generatedFiles, generatedRouteDocs } from '../../framework/cli/gen';
import { generatedContractTypes } from '../../framework/cli/contractTypes';
import type { IndexContext } from '../../framework/indexer/IndexContext';
import type { Row } from '../../framework/storage/BulkWriter';
import { columnType } from '../../framework/catalog/types/ColumnTypes';
import { CatalogRows } from '../../framework/explorer/CatalogRows';
import { loadCatalogFile } from '../../framework/catalog/CatalogLoader';
import type { Database } from '../../framework/storage/Database';
import { tables } from '../../plugins/bigmaps/tables.generated';

describe('generated from tables.yaml (npm run gen)', () => {
  const files = generatedFiles();

  it('covers every plugin with tables and docs/tables.md', () => {
    expect([...files.keys()]).to.include.members([
      path.join('plugins', 'core-chain', 'tables.generated.ts'),
      path.join('plugins', 'governance', 'tables.generated.ts'),
      path.join('plugins', 'bigmaps', 'tables.generated.ts'),
      path.join('docs', 'tables.md'),
    ]);
  });

  for (const [file, content] of files) {
    it(`${file} is current (else run npm run gen)`, () => {
      expect(
        fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8') === content,
        `${file} is stale: run npm run gen`,
      ).to.equal(true);
    });
  }

  it("every DeFi protocol folder's types.gen.ts is current (else run npm run gen)", async () => {
    const generated = await generatedContractTypes(PACKAGE_ROOT);
    expect([...generated.keys()]).to.include.members(
      ['defi-dex/adapters/lb', 'defi-farm/adapters/quipuswap', 'defi-lending/adapters/ctez'].map((d) =>
        path.join('plugins', d, 'types.gen.ts'),
      ),
    );
    const stale = [...generated].filter(([file, content]) => {
      const target = path.join(PACKAGE_ROOT, file);
      return !fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== content;
    });
    expect(
      stale.map(([file]) => file),
      'stale contract types: run npm run gen',
    ).to.deep.equal([]);
  });

  it("every doc's route tables are current (else run npm run gen)", async () => {
    const docs = await generatedRouteDocs();
    expect([...docs.keys()]).to.include.members(
      ['explorer.md', 'defi-dex-api.md', 'bigmaps.md', 'governance.md', 'markets.md', 'metadata.md'].map((f) =>
        path.join('docs', f),
      ),
    );
    const stale = [...docs].filter(
      ([file, content]) => fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8') !== content,
    );
    expect(
      stale.map(([file]) => file),
      'stale route tables: run npm run gen',
    ).to.deep.equal([]);
  });

  it('typed handles check rows at compile time and name their table at run time', () => {
    const appended: Array<[string, unknown]> = [];
    const ctx = {
      append: (t: { code: string } | string, row: unknown) => appended.push([typeof t === 'string' ? t : t.code, row]),
    } as unknown as IndexContext;
    const row = { bigmap_id: 1n, action: 'update', op_id: 65536n, height: 1, time: new Date(0) } as const;
    ctx.append(tables.bigmap_updates, row);
    // @ts-expect-error 'merge' is not a value of the action enum
    ctx.append(tables.bigmap_updates, { ...row, action: 'merge' });
    // @ts-expect-error the height column is required
    ctx.append(tables.bigmap_updates, { bigmap_id: 1n, action: 'update', op_id: 65536n, time: new Date(0) });
    // A row built as the untyped Row (a builder that returns Row) does not pass for the handle's type.
    const untyped: Row = { ...row };
    // @ts-expect-error Row is not BigmapUpdatesRow
    ctx.append(tables.bigmap_updates, untyped);
    ctx.append('bigmap_updates', untyped); // by name, any row: what a test plugin without generated handles does
    expect(appended.map(([code]) => code)).to.deep.equal([
      'bigmap_updates',
      'bigmap_updates',
      'bigmap_updates',
      'bigmap_updates',
      'bigmap_updates',
    ]);
  });

  it('typed entity stores check inserted rows and patches, with the key column as text', () => {
    const written: Array<[string, unknown]> = [];
    const store = {
      insert: (row: unknown) => (written.push(['insert', row]), { row_id: 1n }),
      update: (_e: unknown, patch: unknown) => written.push(['update', patch]),
    };
    const ctx = {
      entities: (t: { code: string } | string, key: string) => (
        written.push([typeof t === 'string' ? t : t.code, key]),
        store
      ),
    } as unknown as IndexContext;
    const bigmaps = ctx.entities(tables.bigmaps, 'bigmap_id');
    const row = {
      bigmap_id: '7',
      n_updates: 0n,
      n_keys: 0n,
      update_height: 1,
      update_time: new Date(0),
      update_block: 'B',
    };
    const entity = bigmaps.insert(row);
    // @ts-expect-error the store keys rows by text: a numeric key is refused
    bigmaps.insert({ ...row, bigmap_id: 7 });
    // @ts-expect-error n_keys is an integer column
    bigmaps.update(entity, { n_keys: 'many' });
    // @ts-expect-error no such column
    ctx.entities(tables.bigmaps, 'bigmap');
    bigmaps.update(entity, { n_keys: 1n });
    expect(written.map(([what]) => what)).to.deep.equal(['bigmaps', 'insert', 'insert', 'update', 'bigmaps', 'update']);
  });

  // Read row types are made of each column type's readTsType: it must name what objectValue returns.
  const reads: Array<[string, string]> = [
    ['int64', '42'],
    ['int64', '9223372036854775807'],
    ['uint64', '9007199254740993'],
    ['money', '1000001'],
    ['bool', 'true'],
    ['float64', '1.5'],
    ['float64', 'NaN'],
    ['decimal(0)', '123456789012345678901'],
    ['decimal(2)', '1.50'],
    ['fixed(2)', '1.50'],
    ['bigint', '123456789012345678901'],
    ['datetime', '2024-01-01T00:00:00Z'],
    ['bytes', '00ff'],
    ['enum(a,b)', 'a'],
    ['hash(block)', 'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2'],
  ];
  for (const [declaration, raw] of reads)
    it(`a ${declaration} column reads '${raw}' as its readTsType says`, () => {
      const type = columnType(declaration);
      const value = type.objectValue(raw);
      const kinds = type.readTsType.split(' | ').map((m) => (m.startsWith("'") ? 'string' : m));
      expect(kinds, `${String(value)} is not ${type.readTsType}`).to.include(value === null ? 'null' : typeof value);
    });

  it('typed read handles take columns of their table only, and only their own table', () => {
    const catalog = loadCatalogFile(path.join(PACKAGE_ROOT, 'tables.yaml'));
    const db = {} as Database;
    const rows = CatalogRows.of(db, catalog.require('bigmaps'), tables.bigmaps, ['bigmap_id', 'key_type']);
    expect(rows.table.code).to.equal('bigmaps');
    const keyType: (row: Awaited<ReturnType<typeof rows.read>>[number]) => string | null = (row) => row.key_type;
    // @ts-expect-error bigmap_values has no key_type column (refused at run time too)
    expect(() => CatalogRows.of(db, catalog.require('bigmap_values'), tables.bigmap_values, ['key_type'])).to.throw();
    expect(() => CatalogRows.of(db, catalog.require('bigmap_values'), tables.bigmaps)).to.throw(/is not table/);
    expect(keyType({ bigmap_id: 1, key_type: null })).to.equal(null);
  });
});
