import * as fs from 'node:fs';
import * as path from 'node:path';

/** The shared fixtures live beside the checkout (`../shared/fixtures`); TZIDX_FIXTURES overrides. */
export const FIXTURES_DIR = process.env.TZIDX_FIXTURES ?? path.resolve(process.cwd(), '..', 'shared', 'fixtures');

export function fixturePath(...parts: string[]): string {
  return path.join(FIXTURES_DIR, ...parts);
}

export function readFixtureJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(fs.readFileSync(fixturePath(...parts), 'utf8')) as T;
}

/** Every `.json` file below a fixtures sub-folder, sorted, as paths relative to FIXTURES_DIR. */
export function listFixtures(...parts: string[]): string[] {
  const root = fixturePath(...parts);
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) out.push(path.relative(FIXTURES_DIR, p));
    }
  };
  walk(root);
  return out.sort();
}
