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
  return Catalog.fromDeclarations(structuredClone(parsedYaml(text, source)), source);
}

/** The last few texts parsed, and their YAML as plain values. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 4;

/**
 * A catalog text's YAML, parsed once per process (why: a process that builds many instances, the
 * test suites' 230, parsed the same 140 KB tables.yaml for each, 0.1–0.2 s; the catalog is built
 * from a copy, so nothing done to one instance's declarations reaches another's).
 */
function parsedYaml(text: string, source: string): unknown {
  if (parsed.has(text)) return parsed.get(text);
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const pos = err.linePos?.[0];
    throw new CatalogError(
      '',
      `YAML ${pos ? `line ${pos.line} col ${pos.col}: ` : ''}${err.message.split('\n')[0]}`,
      source,
    );
  }
  const js: unknown = doc.toJS();
  parsed.set(text, js);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return js;
}
