import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { killLeftIn, registryReachable, ROOT, runBash, type BashRun } from '../helpers/scratch-project.js';
import { tempDir } from '../helpers/temp.js';

/**
 * examples/express as a TypeScript team gets it: the folder copied outside this repository, scanctl
 * installed as its README says (this checkout, built, packed into the copy's vendor/), Express, vitest, TypeScript and the types from the npm registry, then its own checks: `tsc
 * --noEmit` under its strict tsconfig and its vitest suite against scanctl's test kit. Needs the npm
 * registry (Express is not among scanctl's dependencies); without it the file is skipped, saying so.
 */
const EXAMPLE = join(ROOT, 'examples', 'express');
const offline = !registryReachable();
const readme = readFileSync(join(EXAMPLE, 'README.md'), 'utf8');
/**
 * The README's install-and-run block, as pasted. Its first line installs scanctl's tarball from
 * vendor/ (a link to this checkout instead would have `npm install` run the link's `prepare`, a
 * build of this checkout under the tests that run it).
 */
const steps = () => {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const [install = '', ...rest] = block.trim().split('\n');
  expect(install).toMatch(/^npm install --save-dev \.\/vendor\/scanctl-0\.1\.0\.tgz\b/);
  return { install: install.replace(/\s+#.*$/, ''), rest: rest.map((l) => l.replace(/\s+#.*$/, '')) };
};

describe.skipIf(offline)(
  `examples/express, copied out and run as its README says${offline ? ' (skipped: the npm registry is unreachable)' : ''}`,
  () => {
    let dir = '';
    const runs: Array<{ command: string } & BashRun> = [];
    let left: string[] = [];

    beforeAll(async () => {
      dir = join(tempDir('scanctl-express-'), 'app');
      cpSync(EXAMPLE, dir, { recursive: true, filter: (path) => !path.includes('/node_modules') });
      // vendor/scanctl-0.1.0.tgz, as the README has the team make it: this checkout packed (already built).
      mkdirSync(join(dir, 'vendor'));
      const packed = await runBash(`npm pack --ignore-scripts --silent --pack-destination ${join(dir, 'vendor')}`, ROOT);
      expect(packed.code, packed.stderr).toBe(0);
      const { install, rest } = steps();
      for (const command of [install, ...rest]) {
        const run = await runBash(command, dir, { timeoutMs: 240_000 });
        runs.push({ command, ...run });
        if (run.code !== 0) break;
      }
      left = killLeftIn(dir);
    }, 300_000);

    it('is outside the repository, and its README runs: the install, tsc --noEmit and the vitest suite, each exit 0', () => {
      expect(dir.startsWith(ROOT)).toBe(false);
      expect(runs.map((r) => r.command)).toEqual([steps().install, 'npm install', 'npm run typecheck', 'npm test']);
      for (const run of runs) expect(run.code, `${run.command}\n${run.stdout}\n${run.stderr}`).toBe(0);
    });

    it('type-checks under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, with no `!` in its code', () => {
      const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
      expect(tsconfig.compilerOptions).toMatchObject({ strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true });
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ scripts: { typecheck: 'tsc --noEmit' } });
      for (const file of ['src/app.ts', 'src/server.ts', 'test/app.test.ts'])
        expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/\w!\./);
    });

    it('WH-5, WH-9, DEL-2, CHOICE-45: its suite passes: mint, its handler failing once and the retry, dedupe, deletion, a restore per test', () => {
      const test = runs.find((r) => r.command === 'npm test');
      expect(test?.stdout).toMatch(/Tests\s+\S*5 passed/);
    });

    it('leaves no process behind (the emulator of the test kit closes with the file)', () => {
      expect(left).toEqual([]);
    });

    it('runs as Node runs it, without a build: `npm start` is node src/server.ts', () => {
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ scripts: { start: 'node src/server.ts' } });
    });

    it('its CI workflow installs with npm ci, then runs the same two scripts', () => {
      const workflow = parse(readFileSync(join(EXAMPLE, '.github', 'workflows', 'ci.yml'), 'utf8')) as {
        jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, unknown> }> }>;
      };
      const jobSteps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      expect(jobSteps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version': 24 });
      expect(jobSteps.flatMap((s) => (s.run === undefined ? [] : [s.run]))).toEqual(['npm ci', 'npm run typecheck', 'npm test']);
    });
  },
);
