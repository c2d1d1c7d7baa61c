import * as fs from 'node:fs';
import { parseDocument } from 'yaml';
import { Catalog } from './Catalog';
import { CatalogError } from './CatalogError';

/** Reads tables.yaml; YAML syntax errors and schema violations both fail with the offending location. */
export function loadCatalogFile(file: string): Catalog {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new CatalogError('', `cannot read ${file}: ${(e as Error).message}`, file);
  }
  return parseCatalog(text, file);
}

export function parseCatalog(text: string, source = 'tables.yaml'): Catalog {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const pos = err.linePos?.[0];
    throw new CatalogError('', `YAML ${pos ? `line ${pos.line} col ${pos.col}: ` : ''}${err.message.split('\n')[0]}`, source);
  }
  return Catalog.fromDeclarations(doc.toJS(), source);
}
