import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const PAGES = ['docs/testing.md', 'docs/webhooks.md'];

/** The ```ts blocks of a page, as a reader copies them. */
const tsBlocks = (page: string) => [...read(page).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** A fragment (no imports of its own) runs inside a test of the quickstart's file: its emu and backend are declared. */
const PRELUDE = `import { expect } from 'vitest';
import type { EmulatorHandle } from 'scanctl';
import { startBackend, type Backend, type CompletedScan } from './backend.js';
declare const emu: EmulatorHandle;
declare const backend: Backend;
export async function fragment(): Promise<void> {
`;

/** The strictest settings a customer's project is likely to have, over the built package's published types. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  include: ['*.ts'],
};

describe("the TypeScript of docs/testing.md and docs/webhooks.md type-checks as copied, under a strict customer's tsconfig", () => {
  it('every ts block compiles against the built package (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
    symlinkSync(ROOT, join(dir, 'node_modules', 'scanctl'));
    symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'));
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc-types', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    copyFileSync(join(ROOT, 'examples/backend/backend.d.ts'), join(dir, 'backend.d.ts'));

    const files: string[] = [];
    for (const page of PAGES) {
      const shown = tsBlocks(page);
      expect(shown.length, page).toBeGreaterThan(0);
      shown.forEach((code, index) => {
        const name = `${page.replace(/\W/g, '_')}_${index}.ts`;
        writeFileSync(join(dir, name), /^import /m.test(code) ? code : `${PRELUDE}${code}}\n`);
        files.push(name);
      });
    }
    // The verifier takes the secret as the environment gives it, with no `!` and no cast.
    expect(tsBlocks('docs/webhooks.md').join('\n')).toContain('process.env.SCANCTL_WEBHOOK_SECRET)');
    for (const page of PAGES) expect(tsBlocks(page).join('\n'), page).not.toMatch(/scan_id!/);

    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(`${tsc.stdout}${tsc.stderr}`, files.join(', ')).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});

describe('the docs pass the secret under its contract name', () => {
  it('every verifySignature call in docs/ and README.md reads SCANCTL_WEBHOOK_SECRET when it reads the environment', () => {
    for (const page of ['README.md', 'docs/webhooks.md', 'docs/testing.md']) {
      for (const call of read(page).matchAll(/verifySignature\([^\n]*process\.env\.(\w+)/g))
        expect(call[1], page).toBe('SCANCTL_WEBHOOK_SECRET');
    }
  });
});
