import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2019, { ErrorObject, ValidateFunction } from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json';
import draft7 from 'ajv/dist/refs/json-schema-draft-07.json';
import { ApiError, ConfigError, errorMessage, asArray, isRecord, member } from '../../framework';
import { BUILTIN_SCHEMAS } from './schemas/builtin';

/** `$schema` values a custom schema may declare: draft 2019-09 or older (down to draft-06). */
const ACCEPTED_DRAFTS = [
  'https://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-06/schema',
];
const NAME = /^[\x21-\x7e]{1,64}$/;

/**
 * The metadata schemas of an instance: the predefined ones plus the operator's custom schemas from a
 * directory (`<name>.json`). Every entry namespace is validated with ajv; a bad custom schema stops the
 * start-up with a message naming its file.
 */
export class SchemaRegistry {
  private readonly ajv = new Ajv2019({ allErrors: false, strict: false });
  private readonly documents = new Map<string, object>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(customDir?: string) {
    addFormats(this.ajv);
    this.ajv.addMetaSchema(draft6);
    this.ajv.addMetaSchema(draft7);
    for (const [name, doc] of Object.entries(BUILTIN_SCHEMAS)) this.add(name, doc, `predefined schema '${name}'`);
    if (customDir !== undefined) this.loadDir(customDir);
  }

  /** Schema names, sorted. */
  names(): string[] {
    return [...this.documents.keys()].sort();
  }

  document(name: string): object | undefined {
    return this.documents.get(name);
  }

  /**
   * Checks an entry's namespaces (every key but `address`/`asset_id`); the 400 names the JSON path of
   * the first failure, prefixed with `at` (the entry's place in a request body).
   */
  validate(entry: Record<string, unknown>, at = ''): void {
    for (const [ns, value] of Object.entries(entry)) {
      if (ns === 'address' || ns === 'asset_id') continue;
      const v = this.validators.get(ns);
      if (!v) throw ApiError.invalid(`metadata: unknown schema '${ns}' at ${at}/${ns}`);
      if (!v(value)) throw ApiError.invalid(`metadata: ${describe(`${at}/${ns}`, v.errors?.[0])}`);
    }
  }

  private loadDir(dir: string): void {
    let files: string[];
    try {
      files = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort();
    } catch (e) {
      throw new ConfigError(`metadata: cannot read the custom schema directory ${dir}: ${errorMessage(e)}`);
    }
    for (const file of files) {
      const where = `custom schema ${path.join(dir, file)}`;
      const name = file.slice(0, -'.json'.length);
      if (!NAME.test(name))
        throw new ConfigError(`metadata: ${where}: a schema name is printable ASCII without whitespace`);
      if (this.documents.has(name)) throw new ConfigError(`metadata: ${where}: schema '${name}' exists already`);
      let doc: unknown;
      try {
        doc = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      } catch (e) {
        throw new ConfigError(`metadata: ${where}: not JSON (${errorMessage(e)})`);
      }
      if (!isRecord(doc)) throw new ConfigError(`metadata: ${where}: a schema is a JSON object`);
      const draft = doc.$schema;
      if (draft !== undefined && !ACCEPTED_DRAFTS.includes(String(draft).replace(/#$/, ''))) {
        throw new ConfigError(
          `metadata: ${where}: unsupported $schema '${String(draft)}' (draft 2019-09, draft-07 or draft-06)`,
        );
      }
      this.add(name, doc, where);
    }
  }

  private add(name: string, doc: object, where: string): void {
    try {
      // Schemas are registered under their name; their own $id (if any) must not clash with another.
      this.validators.set(name, this.ajv.compile(doc));
    } catch (e) {
      throw new ConfigError(`metadata: ${where} is not a valid JSON Schema: ${errorMessage(e)}`);
    }
    this.documents.set(name, doc);
  }
}

function describe(at: string, err: ErrorObject | undefined): string {
  if (!err) return `${at} is invalid`;
  const where = `${at}${err.instancePath}`;
  if (err.keyword === 'required') return `${where}/${String(member(err.params, 'missingProperty'))} is required`;
  if (err.keyword === 'enum')
    return `${where} must be one of ${asArray(member(err.params, 'allowedValues')).join(', ')}`;
  return `${where} ${err.message}`;
}
