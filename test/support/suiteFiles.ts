import * as fs from 'node:fs';
import * as path from 'node:path';

/*
 * Why: CI runs `npm test` twice, on PGlite and on Postgres, at the same time on two cores. A test file that
 * never opens a test database (nothing it imports reaches test/support/TestDatabase.ts, the one place that
 * picks the backend, nor reads its variable) runs the same code on both: the second run adds nothing but
 * time. With TZIDX_TEST_SKIP_BACKEND_FREE=1 (.ci/run sets it for the Postgres suite) mocha leaves them out.
 */

const BACKEND_MODULE = path.join('test', 'support', 'TestDatabase.js');

/** The compiled test files under `root`/dist whose imports never reach the test database module, from `root`. */
export function backendFreeFiles(root: string): string[] {
  const reaches = new Map<string, boolean>();
  const visit = (file: string): boolean => {
    const known = reaches.get(file);
    if (known !== undefined) return known;
    reaches.set(file, false); // an import cycle adds nothing new
    const src = fs.readFileSync(file, 'utf8');
    let found = file.endsWith(BACKEND_MODULE) || src.includes('TZIDX_TEST_DATABASE_URL');
    for (const [, spec] of found ? [] : src.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
      const target = resolve(path.resolve(path.dirname(file), spec));
      if (target && visit(target)) {
        found = true;
        break;
      }
    }
    reaches.set(file, found);
    return found;
  };
  const dist = path.join(root, 'dist');
  return (fs.readdirSync(dist, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.js') && !visit(path.join(dist, f)))
    .map((f) => path.join('dist', f))
    .sort();
}

function resolve(base: string): string | undefined {
  for (const candidate of [`${base}.js`, path.join(base, 'index.js'), base])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return undefined;
}
