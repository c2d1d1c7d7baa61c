import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Octez OpenAPI specs live beside the fixtures, in shared/reference/octez-openapi. */
export const OPENAPI_DIR =
  process.env.TZIDX_OPENAPI ?? path.resolve(process.cwd(), '..', 'shared', 'reference', 'octez-openapi');

type Schema = Record<string, unknown>;

/**
 * Makes the generated OpenAPI 3.0 schemas usable as strict JSON Schema:
 * - `nullable: true` becomes `anyOf [schema, null]` (ajv has no OpenAPI nullable without a type);
 * - `oneOf` becomes `anyOf`: Octez encodings overlap (entrypoint "default" matches both its enum case
 *   and the free-form name case), so "exactly one" would reject valid data;
 * - objects with declared properties get `additionalProperties: false`, so an invented field fails.
 */
function strictify(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(strictify);
  if (!x || typeof x !== 'object') return x;
  const src = x as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(src)) if (k !== 'nullable') out[k === 'oneOf' ? 'anyOf' : k] = strictify(v);
  if (src.type === 'object' && src.properties && src.additionalProperties === undefined)
    out.additionalProperties = false;
  return src.nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

const refsTo = (x: unknown, id: string): unknown =>
  JSON.parse(JSON.stringify(x).replaceAll('"#/components/', `"${id}#/components/`));

/** Validators built from one Octez OpenAPI file. */
export class OpenApiSchemas {
  private readonly ajv = new Ajv({ strict: false, allErrors: false });
  private readonly doc: {
    paths: Record<string, Record<string, Schema>>;
    components: { schemas: Record<string, Schema> };
  };
  private readonly id: string;
  private readonly kinds = new Map<string, ValidateFunction>();

  constructor(file: string) {
    addFormats(this.ajv);
    this.doc = JSON.parse(fs.readFileSync(path.join(OPENAPI_DIR, file), 'utf8'));
    this.id = file;
    this.ajv.addSchema({ components: strictify(this.doc.components) }, this.id);
  }

  component(name: string): ValidateFunction {
    const v = this.ajv.getSchema(`${this.id}#/components/schemas/${name}`);
    if (!v) throw new Error(`no component ${name} in ${this.id}`);
    return v;
  }

  /** The 200 response schema of a GET path as written in the spec. */
  response(specPath: string): ValidateFunction {
    const op = this.doc.paths[specPath]?.get as
      { responses: Record<string, { content: Record<string, { schema: unknown }> }> } | undefined;
    if (!op) throw new Error(`no GET ${specPath} in ${this.id}`);
    return this.ajv.compile(
      refsTo(strictify(op.responses['200'].content['application/json'].schema), this.id) as Schema,
    );
  }

  /** Validator for one operation content of `kind`, from the `oneOf` branch of that kind. */
  contentsKind(component: string, kind: string): ValidateFunction {
    const key = `${component}/${kind}`;
    const hit = this.kinds.get(key);
    if (hit) return hit;
    const root = strictify(this.doc.components.schemas[component]) as {
      anyOf: { properties: { kind: { enum: string[] } } }[];
    };
    const branches = root.anyOf.filter((b) => b.properties?.kind?.enum?.includes(kind));
    if (branches.length === 0) throw new Error(`no ${kind} in ${component}`);
    const v = this.ajv.compile(refsTo(branches.length === 1 ? branches[0] : { anyOf: branches }, this.id) as Schema);
    this.kinds.set(key, v);
    return v;
  }

  /** Every kind the component lists. */
  kindsOf(component: string): string[] {
    const root = strictify(this.doc.components.schemas[component]) as {
      anyOf: { properties: { kind: { enum: string[] } } }[];
    };
    return root.anyOf.flatMap((b) => b.properties?.kind?.enum ?? []);
  }
}

export function errorsOf(v: ValidateFunction): string {
  return JSON.stringify(v.errors?.slice(0, 3));
}
