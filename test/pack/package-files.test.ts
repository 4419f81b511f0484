import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipPack } from '../helpers/skip-pack.js';

/**
 * The package ships what it runs, and nothing else: the launcher, the bundles, the declarations the
 * two entries reach, scanctl/verify, the fixtures and the README. `npm pack --dry-run` (seconds:
 * nothing is installed; pack-install.test.ts installs the tarball and runs it).
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every file the package may ship: a new file fails until it is named here, with why it ships. */
const SHIPPED: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /^package\.json$/, why: 'npm always packs it; the launcher reads its version' },
  { pattern: /^README\.md$/, why: "the registry's page" },
  { pattern: /^bin\/scanctl\.js$/, why: 'the launcher (package.json bin)' },
  { pattern: /^bin\/package\.json$/, why: 'makes the launcher CommonJS in an ES module package' },
  { pattern: /^dist\/bundle\/(cli|global-options)\.cjs$/, why: "the CLI's bundle, and the launcher's reading of a command line" },
  { pattern: /^dist\/bundle\/index\.mjs$/, why: 'the library (exports ".")' },
  { pattern: /^dist\/bundle\/lib-[A-Z0-9]+\.mjs$/, why: "the library's chunks, imported lazily" },
  { pattern: /^dist\/bundle\/tui(-[A-Z0-9]+)?\.mjs$/, why: 'the Ink view and its chunks, loaded by webhook listen' },
  { pattern: /^dist\/verify\.js$/, why: 'scanctl/verify, which the library imports too' },
  { pattern: /^dist\/types\/.+\.d\.ts$/, why: 'the declarations of the two entries (checked closed and reached below)' },
  { pattern: /^fixtures\/.+\.json$/, why: "serve's default fixtures and the simulated scan's result" },
];

/** Files that must be in it: what package.json points at, and what the CLI reads at run time. */
const NEEDED = [
  'package.json',
  'README.md',
  'bin/scanctl.js',
  'bin/package.json',
  'dist/bundle/cli.cjs',
  'dist/bundle/global-options.cjs',
  'dist/bundle/index.mjs',
  'dist/bundle/tui.mjs',
  'dist/verify.js',
  'dist/types/index.d.ts',
  'dist/types/verify.d.ts',
  'fixtures/default.json',
  'fixtures/results/default.json',
];

/**
 * Relative specifiers of a module a file imports: `from './x.js'`, `import('./x.js')`, `import './x.js'`,
 * `require('./x.js')`. Only specifiers with a module's extension: what tsc and esbuild write (react's
 * messages in tui.mjs quote `import ... from './MyComponent'`).
 */
function relativeImports(text: string): string[] {
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+\.[cm]?js)['"]/g;
  return [...text.matchAll(specifier)].map((m) => m[1]!);
}

describe.skipIf(skipPack('package-files'))('the files npm pack ships', () => {
  let files: string[] = [];

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist', 'bundle', 'cli.cjs')), 'run npm run build first').toBe(true);
    const packed = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [info] = JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>;
    files = info!.files.map((f) => f.path).sort();
  }, 60_000);

  it('only files of the expected kinds: no compiled module that nothing loads, no source, test or benchmark', () => {
    expect(files.filter((file) => !SHIPPED.some(({ pattern }) => pattern.test(file)))).toEqual([]);
    for (const { pattern, why } of SHIPPED)
      expect(
        files.some((file) => pattern.test(file)),
        `${pattern} (${why})`,
      ).toBe(true);
  });

  it('every file the package points at or the CLI reads at run time', () => {
    expect(NEEDED.filter((file) => !files.includes(file))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const targets = [
      pkg.main,
      pkg.types,
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap((e: any) => (typeof e === 'string' ? [e] : Object.values(e))),
    ];
    expect(targets.map((target: string) => posix.normalize(target)).filter((target) => !files.includes(target))).toEqual([]);
  });

  it('each bundle and declaration imports only shipped files (relative imports resolve inside the package)', () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => /\.(c|m)?js$|\.d\.ts$/.test(f))) {
      for (const specifier of relativeImports(readFileSync(join(ROOT, file), 'utf8'))) {
        const target = posix.join(posix.dirname(file), specifier);
        const candidates = file.endsWith('.d.ts') ? [target.replace(/\.js$/, '.d.ts')] : [target];
        if (!candidates.some((c) => files.includes(c))) missing.push(`${file} -> ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every shipped declaration is reached from index.d.ts or verify.d.ts', () => {
    const reached = new Set<string>();
    const queue = ['dist/types/index.d.ts', 'dist/types/verify.d.ts'];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (reached.has(file) || !files.includes(file)) continue;
      reached.add(file);
      for (const specifier of relativeImports(readFileSync(join(ROOT, file), 'utf8')))
        queue.push(posix.join(posix.dirname(file), specifier).replace(/\.js$/, '.d.ts'));
    }
    expect(files.filter((file) => file.endsWith('.d.ts') && !reached.has(file))).toEqual([]);
  });
});
