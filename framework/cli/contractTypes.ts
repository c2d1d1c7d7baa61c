import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { BUILTIN_PLUGIN_DIR } from '../app/TzidxApp';
import { ContractTypes } from '../michelson/ContractTypes';
import { isPrim } from '../michelson/Michelson';
import { entrypointTypes, plainTsType, tsKey } from '../michelson/PlainTypes';

/*
 * Why: each DeFi protocol folder ships its contracts' real Michelson types (`adapters/<p>/types.ts`: a KnownCode,
 * ContractTypes, or a plain type). `npm run gen` writes beside it `types.gen.ts`: the TypeScript types of the
 * decoded storage and of each entrypoint's argument, and the checked readers (`TypedCode`, `TypedValue`) that
 * give handlers those types, so no handler casts a decoded value.
 */

/** The folders whose `types.ts` is read: each DeFi plugin's protocol folders. */
const ADAPTERS = ['defi-dex', 'defi-farm', 'defi-lending'];

/** Each protocol folder's `types.gen.ts` (path relative to the root → content), from its compiled `types.ts`. */
export async function generatedContractTypes(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const plugin of ADAPTERS) {
    const dir = path.join('plugins', plugin, 'adapters');
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const name of fs.readdirSync(path.join(root, dir)).sort()) {
      if (!fs.existsSync(path.join(root, dir, name, 'types.ts'))) continue;
      const compiled = path.join(BUILTIN_PLUGIN_DIR, plugin, 'adapters', name, 'types.js');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled module of a file found on disk
      const exports = require(compiled) as Record<string, unknown>;
      const source = renderTypes(exports);
      if (source === undefined) continue;
      const file = path.join(dir, name, 'types.gen.ts');
      const options = await prettier.resolveConfig(path.join(root, file));
      out.set(file, await prettier.format(source, { ...options, filepath: file }));
    }
  }
  return out;
}

/** The module's typed readers and their types, for its exports that are contract or value types (by name). */
function renderTypes(exports: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  const used = new Set<string>();
  const imported: string[] = [];
  for (const [name, value] of Object.entries(exports).sort(([a], [b]) => a.localeCompare(b))) {
    const code = contractTypes(value);
    if (code.length > 0) imported.push(name);
    for (const [i, { label, types }] of code.entries()) {
      const base = pascal(name) + (code.length > 1 ? String(i) : '');
      const ref = Array.isArray(value) ? `${name}[${i}]` : isKnown(value) ? `${name}.types` : name;
      const storage = plainTsType(types.storageType);
      const args = [...entrypointTypes(types.parameterType)].map(([e, t]) => `${tsKey(e)}: ${plainTsType(t)};`);
      parts.push(
        `/** ${label}: the decoded storage. */\nexport type ${base}Storage = ${storage};\n`,
        `/** ${label}: each entrypoint's decoded argument. */\nexport interface ${base}Parameters {\n${args.join('\n')}\n}\n`,
        `export const ${camel(base)}Code = new TypedCode<${base}Storage, ${base}Parameters>(${ref});\n`,
      );
      used.add('TypedCode');
    }
    if (code.length === 0 && isPrim(value) && /^[a-z_0-9]+$/.test(value.prim)) {
      imported.push(name);
      parts.push(
        `/** The decoded ${name}. */\nexport type ${pascal(name)} = ${plainTsType(value)};\n`,
        `export const ${camel(pascal(name))}Type = new TypedValue<${pascal(name)}>(${name});\n`,
      );
      used.add('TypedValue');
    }
  }
  if (parts.length === 0) return undefined;
  if (parts.some((p) => p.includes('BigMap<'))) used.add('type BigMap');
  const names = [...used].sort((a, b) => a.replace('type ', '').localeCompare(b.replace('type ', '')));
  return [
    '// Generated from ./types.ts by `npm run gen`: do not edit',
    '// (test/framework/generated.test.ts checks it is current).',
    `import { ${names.join(', ')} } from '../../../../framework';`,
    `import { ${imported.join(', ')} } from './types';`,
    '',
    ...parts,
  ].join('\n');
}

/** A KnownCode's, a ContractTypes' or a list of ContractTypes' types, named for comments; none for other values. */
function contractTypes(value: unknown): Array<{ label: string; types: ContractTypes }> {
  if (value instanceof ContractTypes) return [{ label: 'The contract', types: value }];
  if (isKnown(value)) return [{ label: value.name, types: value.types }];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v instanceof ContractTypes))
    return value.map((types: ContractTypes, i) => ({ label: `Version ${i}`, types }));
  return [];
}

function isKnown(v: unknown): v is { name: string; types: ContractTypes } {
  return typeof v === 'object' && v !== null && (v as { types?: unknown }).types instanceof ContractTypes;
}

const pascal = (name: string): string =>
  name
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const camel = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);
