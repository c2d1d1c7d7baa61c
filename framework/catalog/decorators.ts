import 'reflect-metadata';
import { Catalog } from './Catalog';
import { ColumnDecl, TableDecl } from './CatalogModel';

/**
 * Decorators for third-party plugins that declare tables in code rather than in tables.yaml:
 *
 *   @table('pool', { description: 'DEX pools', kind: 'mutable' })
 *   class PoolRow { @column({ type: 'uint64' }) row_id!: string; @column({ type: 'address' }) contract!: string }
 *
 * They produce the same declarations as tables.yaml and go through the same validation.
 */
const TABLE_KEY = Symbol('tzidx:table');
const COLUMNS_KEY = Symbol('tzidx:columns');

export type TableOptions = Omit<TableDecl, 'columns'>;
export type ColumnOptions = Omit<ColumnDecl, 'name'> & { name?: string };
/** A class decorated with @table (its constructor's parameters do not matter). */
export type TableClass = abstract new (...args: never[]) => object;

export function table(code: string, options: TableOptions = {}): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(TABLE_KEY, { code, options }, target);
  };
}

export function column(options: ColumnOptions): PropertyDecorator {
  return (target, property) => {
    const ctor = target.constructor;
    const own: ColumnDecl[] = Reflect.getOwnMetadata(COLUMNS_KEY, ctor) ?? [];
    Reflect.defineMetadata(COLUMNS_KEY, [...own, { ...options, name: options.name ?? String(property) }], ctor);
  };
}

/** The declaration a decorated class stands for; throws if the class is not a @table. */
export function tableDeclaration(cls: TableClass): { code: string; decl: TableDecl } {
  const meta = Reflect.getMetadata(TABLE_KEY, cls) as { code: string; options: TableOptions } | undefined;
  if (!meta) throw new Error(`${cls.name} is not decorated with @table`);
  const columns: ColumnDecl[] = Reflect.getOwnMetadata(COLUMNS_KEY, cls) ?? [];
  return { code: meta.code, decl: { ...meta.options, columns } };
}

/** Builds a plugin's catalog from its decorated table classes. */
export function catalogFromClasses(plugin: string, classes: readonly TableClass[]): Catalog {
  const tables: Record<string, TableDecl> = {};
  for (const cls of classes) {
    const { code, decl } = tableDeclaration(cls);
    tables[code] = decl;
  }
  return Catalog.fromDeclarations({ version: 1, plugins: { [plugin]: { tables } } }, `plugin ${plugin} (decorators)`);
}
