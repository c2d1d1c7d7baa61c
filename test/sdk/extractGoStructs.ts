/**
 * Regenerates `tzpro-go-fields.json` from a checkout of trilitech/tzpro-go:
 *   node dist/test/sdk/extractGoStructs.js <checkout> <commit> > test/sdk/tzpro-go-fields.json
 * Why: the SDK's struct tags are the client contract; keeping them as data (with the commit read)
 * lets the decoding test check every route without a Go toolchain.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface GoField {
  /** Go field name. */
  name: string;
  /** Go type as written, package-qualified for the SDK's own types (`index.Vote`). */
  type: string;
  /** JSON key (encoding/json), or null for `json:"-"`. */
  json: string | null;
  omitempty: boolean;
  /** Column name the table client asks for (`tzpro` tag), or null when the field is not a column. */
  column: string | null;
  /** `tzpro:",hex"`: the column arrives as a hex string of the binary encoding. */
  hex: boolean;
  /** `json:",string"`: a number or bool sent as a JSON string (only written when set). */
  quoted?: boolean;
}

const FIELD = /^\s*([A-Z]\w*)\s+([*[\]\w.]+(?:\[[\w.]+\][*\w.]+)?)\s*(?:`(.*)`)?/;
const EMBED = /^\s*\*?([A-Z][\w.]*)\s*(?:\/\/.*)?$/;

function tagValue(tags: string, key: string): string | undefined {
  const m = new RegExp(`${key}:"([^"]*)"`).exec(tags);
  return m?.[1];
}

const BUILTIN = new Set([
  'int',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'float32',
  'float64',
  'bool',
  'string',
  'byte',
  'any',
  'struct',
  'map',
]);

/** `Vote` in package index → `index.Vote`, so types of every package resolve through one table. */
function qualify(type: string, pkg: string): string {
  return type.replace(/[A-Za-z_][\w.]*/g, (t) => (t.includes('.') || BUILTIN.has(t) ? t : `${pkg}.${t}`));
}

function parseFile(
  src: string,
  pkg: string,
  out: Record<string, { file: string; fields: GoField[]; embeds: string[] }>,
  file: string,
): void {
  for (const m of src.matchAll(/^\s*(?:type\s+)?(\w+)\s+struct\s*\{\n([\s\S]*?)\n\s*\}/gm)) {
    const fields: GoField[] = [];
    const embeds: string[] = [];
    for (const line of m[2].split('\n')) {
      const f = FIELD.exec(line);
      if (!f) {
        const e = EMBED.exec(line);
        if (e) embeds.push(qualify(e[1], pkg));
        continue;
      }
      const tags = f[3] ?? '';
      const jsonTag = tagValue(tags, 'json');
      const [jsonName, ...jsonOpts] = (jsonTag ?? '').split(',');
      const json = jsonTag === '-' ? null : jsonName || f[1];
      const [tzName, ...tzOpts] = (tagValue(tags, 'tzpro') ?? '').split(',');
      const column = tzName === '-' ? null : tzName || json;
      fields.push({
        name: f[1],
        type: qualify(f[2], pkg),
        json,
        omitempty: jsonOpts.includes('omitempty'),
        column,
        hex: tzOpts.includes('hex'),
        ...(jsonOpts.includes('string') ? { quoted: true } : {}),
      });
    }
    out[`${pkg}.${m[1]}`] = { file, fields, embeds };
  }
}

function main(): void {
  const [root, commit] = process.argv.slice(2);
  const structs: Record<string, { file: string; fields: GoField[]; embeds: string[] }> = {};
  const aliases: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.go') && !e.name.endsWith('_test.go')) {
        const src = fs.readFileSync(path.join(root, rel), 'utf8');
        const pkg = /^package\s+(\w+)/m.exec(src)![1];
        parseFile(src, pkg, structs, rel);
        for (const a of src.matchAll(/^\s+(\w+)\s+=\s+((?:tezos|micheline|util|index|token)\.\w+)\s*$/gm))
          aliases[`${pkg}.${a[1]}`] = a[2];
        for (const a of src.matchAll(
          /^type\s+(\w+)\s+((?:u?int\d*|string|byte|float64|\[\]\w+|tezos\.\w+|micheline\.\w+|\w+))\s*$/gm,
        ))
          aliases[`${pkg}.${a[1]}`] = a[2];
      }
    }
  };
  walk('tzpro');
  process.stdout.write(
    JSON.stringify(
      { repo: 'trilitech/tzpro-go', commit, tzgo: 'blockwatch.cc/tzgo v1.18.2', aliases, structs },
      null,
      1,
    ) + '\n',
  );
}

if (require.main === module) main();
