import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The e2e project runs the built CLI (dist/bundle/cli.cjs). After an edit under src/, one e2e file
 * can be run alone (`npx vitest run test/e2e/exec.test.ts`): the bundles are made again from src/
 * first (bin/bundle.mjs, esbuild: about 2 s; `npm run build`'s tsc takes 15 s more and makes only
 * the type declarations and dist/verify.js, which the library's bundle imports).
 */
const ROOT = join(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli.cjs');

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function setup(): void {
  if (!existsSync(join(ROOT, 'dist', 'verify.js'))) throw new Error('scanctl is not built: run `npm run build` once');
  const verifyChanged = statSync(join(ROOT, 'src', 'verify.ts')).mtimeMs > statSync(join(ROOT, 'dist', 'verify.js')).mtimeMs;
  if (verifyChanged) throw new Error('src/verify.ts changed since the last build: run `npm run build` (tsc makes dist/verify.js)');
  if (existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= newestUnder(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'bin', 'bundle.mjs')], { stdio: 'inherit' });
}
