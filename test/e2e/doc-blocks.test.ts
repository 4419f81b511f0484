import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO } from '../helpers/emulator.js';
import { freePort } from '../helpers/net.js';
import { installScanctl, killLeftIn, processesIn, registryReachable, ROOT, runBash } from '../helpers/scratch-project.js';
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

/**
 * Every shell block of the pages a TypeScript team reads, split at its `# or ...` alternatives: each
 * part is run here as pasted, in a scratch project with scanctl installed as the docs say, or
 * listed with the reason it cannot be (and, where there is one, the test that runs it instead).
 */
const SHELL_PAGES = ['README.md', 'docs/testing.md', 'docs/webhooks.md', 'docs/ci.md'];
const shellParts = (page: string) => blocks(page, 'sh').flatMap((block) => block.split(/^(?=# or\b)/m).map((part) => ({ page, part })));

interface NotRun {
  page: string;
  /** Matches the part (and no other part of the page). */
  part: RegExp;
  reason: string;
  /** The test that runs it, where one does. */
  runBy?: string;
}

const NOT_RUN: NotRun[] = [
  {
    page: 'README.md',
    part: /^npm install && npx scanctl serve/,
    reason:
      "a fresh clone's npm install (every devDependency and the build), then serve, which runs until Ctrl+C; its npm test is this whole suite",
    runBy: 'test/pack/clone-install.test.ts',
  },
  {
    page: 'README.md',
    part: /^curl -fsSL https:\/\/github\.com\/OWNER\//,
    reason: 'downloads a release from github.com (OWNER is a placeholder); install.sh itself runs against a loopback release',
    runBy: 'test/exe/install-script.test.ts',
  },
  {
    page: 'README.md',
    part: /^# from a clone: build, then pack/,
    reason: "`<this repository>` is a placeholder, and a fresh clone's npm install builds everything (minutes)",
    runBy: 'test/pack/clone-install.test.ts',
  },
  {
    page: 'README.md',
    part: /^# or as a git dependency/,
    reason: 'npm clones and builds scanctl (its prepare script: a full install, minutes), from a clone whose origin is a local path',
    runBy: 'test/pack/clone-install.test.ts',
  },
  {
    page: 'docs/testing.md',
    part: /^# or straight from git/,
    reason: "the README's git-dependency lines, the same two lines (checked below): npm clones and builds scanctl, minutes",
    runBy: 'test/pack/clone-install.test.ts',
  },
  {
    page: 'docs/testing.md',
    part: /^node_modules\/\.bin\/scanctl exec \[options\] -- COMMAND \[ARGS\.\.\.\]\n$/,
    reason: 'a synopsis: `[options]` and `COMMAND [ARGS...]` are placeholders (the next block is the command filled in, and runs)',
  },
  {
    page: 'docs/ci.md',
    part: /^set -em/,
    reason: 'run above, as ci/against-scanctl.sh under scanctl exec as its workflow step calls it',
    runBy: 'test/e2e/doc-blocks.test.ts',
  },
  {
    page: 'docs/ci.md',
    part: /^scan=\$\(node_modules\/\.bin\/scanctl scan simulate/,
    reason: 'run above, under scanctl exec --forward to a receiver that fails its first answer',
    runBy: 'test/e2e/doc-blocks.test.ts',
  },
];

/** The parts run here, each by what it needs around it. */
const RUN_HERE: Array<{ page: string; part: RegExp }> = [
  {
    page: 'docs/testing.md',
    part: /^# from a checkout of scanctl: npm pack writes scanctl-0\.1\.0\.tgz\nnpm install --save-dev \.\/scanctl-0\.1\.0\.tgz\n$/,
  },
  { page: 'docs/testing.md', part: /^node_modules\/\.bin\/scanctl exec --seed 1 .* -- npm test\n$/ },
];

const partOf = (page: string, part: RegExp) => {
  const found = shellParts(page).filter((p) => part.test(p.part));
  expect(found, `${page}: ${String(part)}`).toHaveLength(1);
  return found[0]!.part;
};

describe('the shell blocks of README.md, docs/testing.md, docs/webhooks.md and docs/ci.md: each run as pasted, or listed with why not', () => {
  it('every part of every sh block is run here or listed with its reason, and every listed part is still in its page', () => {
    const listed = [...NOT_RUN, ...RUN_HERE];
    for (const { page, part } of SHELL_PAGES.flatMap(shellParts)) {
      const matches = listed.filter((entry) => entry.page === page && entry.part.test(part));
      expect(matches.length, `${page}: a shell block neither run nor listed:\n${part}`).toBe(1);
    }
    for (const entry of listed) partOf(entry.page, entry.part);
    for (const { runBy } of NOT_RUN) if (runBy) expect(existsSync(join(ROOT, runBy)), runBy).toBe(true);
    // docs/webhooks.md shows requests and output, no commands to paste: nothing to run there.
    expect(shellParts('docs/webhooks.md')).toEqual([]);
  });

  it("docs/testing.md's git lines are the README's, which test/pack/clone-install.test.ts runs", () => {
    const lines = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines(partOf('docs/testing.md', /^# or straight from git/))).toEqual(lines(partOf('README.md', /^# or as a git dependency/)));
  });

  it('no block calls a bare `scanctl` (not on PATH in a project that installs it): node_modules/.bin/scanctl', () => {
    for (const { page, part } of SHELL_PAGES.flatMap(shellParts)) expect(part, page).not.toMatch(/^scanctl /m);
  });

  it.skipIf(!registryReachable())(
    `docs/testing.md's tarball install: npm install --save-dev ./scanctl-0.1.0.tgz gives node_modules/.bin/scanctl${registryReachable() ? '' : " (skipped: the npm registry is unreachable, the tarball's dependencies come from it)"}`,
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'package.json'), '{ "name": "your-project", "private": true }\n');
      // "from a checkout of scanctl": the tarball of this checkout, built.
      execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, stdio: 'ignore' });
      const run = await runBash(partOf(RUN_HERE[0]!.page, RUN_HERE[0]!.part), dir, {
        env: { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' },
        timeoutMs: 240_000,
      });
      expect(killLeftIn(dir)).toEqual([]);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
      expect(pkg.devDependencies).toEqual({ scanctl: 'file:scanctl-0.1.0.tgz' });
      expect(execFileSync(join(dir, 'node_modules', '.bin', 'scanctl'), ['--version'], { encoding: 'utf8' }).trim()).toBe('0.1.0');
    },
    300_000,
  );

  it("docs/testing.md's exec line: the emulator around `npm test`, the backend's suite, forwarded to it; exit 0 and nothing left running", async () => {
    const dir = tempDir();
    const port = await freePort();
    installScanctl(dir);
    copyFileSync(join(ROOT, 'examples/backend/backend.js'), join(dir, 'backend.js'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'customer-backend', private: true, type: 'module', scripts: { test: 'node test.js' } }),
    );
    // The team's npm test: its backend on the port the doc forwards to, a scan whose webhooks it must acknowledge.
    writeFileSync(
      join(dir, 'test.js'),
      `import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { startBackend } from './backend.js';
const env = process.env;
const backend = await startBackend({ serviceUrl: env.SCANCTL_BASE_URL, secretKey: env.SCANCTL_SECRET_KEY, webhookSecret: env.SCANCTL_WEBHOOK_SECRET, port: ${port} });
try {
  // Not execFileSync: the backend answers the webhooks in this process meanwhile.
  await promisify(execFile)('node_modules/.bin/scanctl', ['scan', 'simulate', '--user', 'member_t', '--wait', '--timeout', '30s']);
  writeFileSync('recorded.json', JSON.stringify([...backend.state.completedScans.values()]));
} finally {
  await backend.close();
}
`,
    );
    const line = partOf(RUN_HERE[1]!.page, RUN_HERE[1]!.part).replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    const run = await runBash(line, dir);
    expect(killLeftIn(dir)).toEqual([]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    // --clock-start and --frozen-clock: the scan happened at the start, on the emulator's clock.
    expect(JSON.parse(readFileSync(join(dir, 'recorded.json'), 'utf8'))).toEqual([
      { member: 'member_t', occurredAt: '2026-01-01T00:00:00.000Z', month: '2026-01' },
    ]);
  }, 150_000);
});
