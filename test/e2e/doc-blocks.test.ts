import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO } from '../helpers/emulator.js';
import { freePort } from '../helpers/net.js';
import { installScanctl, processesIn, ROOT, runBash } from '../helpers/scratch-project.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { tempDir } from '../helpers/temp.js';

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

describe("docs/ci.md's shell blocks run as pasted, under scanctl exec as the workflow calls it", () => {
  it('with the example backend as `npm start`: exit 0, every check passes, and nothing it started is left running', async () => {
    const dir = tempDir();
    const port = await freePort();
    const onPort = (text: string) => text.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    const script = blocks('docs/ci.md', 'sh').find((b) => b.includes('npm start'));
    const workflow = parse(blocks('docs/ci.md', 'yaml')[0]!) as { jobs: Record<string, { steps: Step[] }> };
    const step = Object.values(workflow.jobs)
      .flatMap((job) => job.steps)
      .find((s) => s.run?.includes('ci/against-scanctl.sh'));
    expect(script).toBeDefined();
    expect(step?.run).toMatch(/^node_modules\/\.bin\/scanctl exec .* -- bash ci\/against-scanctl\.sh$/);

    // A customer's project: scanctl installed (this checkout, built), the example backend as its server.
    installScanctl(dir);
    mkdirSync(join(dir, 'ci'));
    copyFileSync(join(ROOT, 'examples/backend/backend.js'), join(dir, 'backend.js'));
    const scripts = { start: 'node server.js', test: 'node test.js' };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'customer-backend', private: true, type: 'module', scripts }));
    writeFileSync(
      join(dir, 'server.js'),
      `import { startBackend } from './backend.js';
const env = process.env;
await startBackend({ serviceUrl: env.SCANCTL_BASE_URL, secretKey: env.SCANCTL_SECRET_KEY, webhookSecret: env.SCANCTL_WEBHOOK_SECRET, port: ${port} });
`,
    );
    // "Your tests against the emulator": the backend mints a session at the emulator for a member.
    writeFileSync(
      join(dir, 'test.js'),
      `const answer = await fetch('http://127.0.0.1:${port}/scan-sessions', { method: 'POST', headers: { 'x-member-id': 'member_t' } });
if (answer.status !== 201) throw new Error('mint: ' + answer.status);
`,
    );
    writeFileSync(join(dir, 'ci', 'against-scanctl.sh'), onPort(script!));

    const run = await runBash(onPort(step!.run!), dir);
    // What the script left running, stopped here so that a failure leaves nothing behind either.
    const left = processesIn(dir);
    for (const { pid } of left) process.kill(pid, 'SIGKILL');
    expect(left.map((p) => p.command)).toEqual([]);
    const log = () => `${run.stdout}\n${run.stderr}\nbackend.log:\n${readFileSync(join(dir, 'backend.log'), 'utf8')}`;
    expect(run.code, log()).toBe(0);
    expect(readFileSync(join(dir, 'scanctl-check.xml'), 'utf8')).toMatch(/failures="0"/);
    expect(readFileSync(join(dir, 'retried.json'), 'utf8')).toMatch(/"object":"wait","ok":true/);
  }, 150_000);

  it('WH-9: the retry block finds the scan by its summary line and plays attempt 2 against a receiver that fails the first', async () => {
    const dir = tempDir();
    installScanctl(dir);
    const receiver = await startReceiver(DEMO.webhookSecret, (n) => (n === 1 ? 500 : 204));
    try {
      const retry = blocks('docs/ci.md', 'sh').find((b) => b.includes('webhook wait --scan'));
      expect(retry).toBeDefined();
      const run = await runBash(
        `node_modules/.bin/scanctl exec --seed 1 --forward ${receiver.url} -- bash -ec '${retry!.replaceAll("'", "'\\''")}'`,
        dir,
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(receiver.received.map((d) => d.signatureValid)).toEqual([true, true]);
    } finally {
      await receiver.close();
    }
  }, 150_000);
});
