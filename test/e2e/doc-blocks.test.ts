import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const blocks = (page: string, language: string) =>
  [...read(page).matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const PAGES = ['docs/ci.md', 'docs/testing.md'];

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

describe('the CI blocks of docs/ci.md and docs/testing.md are whole, runnable as copied', () => {
  const workflows = PAGES.flatMap((page) => blocks(page, 'yaml').map((text) => ({ page, text })));

  it('every YAML block is a workflow: jobs whose steps each use an action or run a command', () => {
    expect(workflows.length).toBeGreaterThan(2);
    for (const { page, text } of workflows) {
      const doc = parse(text) as { jobs?: Record<string, { 'runs-on'?: string; steps?: Step[] }> };
      expect(Object.keys(doc.jobs ?? {}), page).not.toHaveLength(0);
      for (const job of Object.values(doc.jobs!)) {
        expect(job['runs-on'], page).toBeTruthy();
        for (const step of job.steps ?? []) expect(Boolean(step.uses) !== Boolean(step.run), `${page}: ${JSON.stringify(step)}`).toBe(true);
      }
    }
  });

  it('scanctl runs as the real binary in them, and the action installs what exists today (version: source)', () => {
    for (const { page, text } of workflows) {
      const steps = Object.values((parse(text) as { jobs: Record<string, { steps: Step[] }> }).jobs).flatMap((job) => job.steps);
      for (const step of steps) {
        if (step.run) expect(step.run, page).not.toMatch(/\bnpx scanctl\b/);
        if (step.uses?.includes('/scanctl@') && !step.with?.stop) expect(step.with?.version, page).toBe('source');
      }
    }
  });

  it('every shell block parses (bash -n) and calls scanctl as node_modules/.bin/scanctl', () => {
    for (const page of PAGES) {
      for (const script of blocks(page, 'sh')) {
        const check = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
        expect(check.stderr, `${page}:\n${script}`).toBe('');
        expect(script, page).not.toMatch(/\bnpx scanctl\b/);
      }
    }
  });
});
