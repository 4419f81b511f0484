import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVIRONMENT } from '../../src/contract/environment.js';
import { BIN, runCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { freePort } from '../helpers/net.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const script = (name: string) => join(ROOT, '.github', 'action', name);

/** NAME=value lines of a $GITHUB_ENV or $GITHUB_OUTPUT file. */
const entries = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** A GitHub runner's files for one job: $GITHUB_ENV, $GITHUB_OUTPUT per step, $RUNNER_TEMP. */
function runner() {
  const dir = tempDir('scanctl-action-');
  const files = { GITHUB_ENV: join(dir, 'env'), GITHUB_OUTPUT: join(dir, 'output'), RUNNER_TEMP: join(dir, 'tmp') };
  writeFileSync(files.GITHUB_ENV, '');
  writeFileSync(files.GITHUB_OUTPUT, '');
  return files;
}

const step = (name: string, env: Record<string, string>) =>
  spawnSync(process.execPath, [script(name)], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, SCANCTL_CLI: `${process.execPath} ${BIN}`, NO_COLOR: '1', ...env },
    timeout: 90_000,
  });

const started: number[] = [];
afterEach(() => {
  // A failed check must not leave serve running.
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already stopped.
    }
  }
});

describe('the CI action (action.yml, .github/action)', () => {
  it('start: serve in the background, ready, with the environment contract in $GITHUB_ENV; stop: the state file written', async () => {
    const files = runner();
    const port = await freePort();
    const start = step('start.mjs', {
      ...files,
      INPUT_PORT: String(port),
      INPUT_SEED: '7',
      INPUT_CLOCK_START: '2026-01-01T09:00:00Z',
      INPUT_FIXTURES: '',
    });
    expect(start.status, start.stdout + start.stderr).toBe(0);
    const env = entries(files.GITHUB_ENV);
    started.push(Number(env.SCANCTL_SERVE_PID));
    const baseUrl = `http://127.0.0.1:${port}`;
    expect(env).toMatchObject({
      SCANCTL_BASE_URL: baseUrl,
      SCANCTL_APP_ID: DEMO.appId,
      SCANCTL_SECRET_KEY: DEMO.testSecret,
      SCANCTL_PUBLISHABLE_KEY: DEMO.testPublishable,
      SCANCTL_WEBHOOK_SECRET: DEMO.webhookSecret,
    });
    expect(Object.keys(env).filter((name) => name in ENVIRONMENT)).toEqual(Object.keys(ENVIRONMENT));
    expect(entries(files.GITHUB_OUTPUT)).toMatchObject({
      'base-url': baseUrl,
      pid: env.SCANCTL_SERVE_PID,
      'state-file': env.SCANCTL_STATE_FILE,
    });

    // A later step of the job: the emulator is up with the inputs' clock, and takes the contract's key.
    expect((await runCli(['health'], { env: { SCANCTL_BASE_URL: baseUrl } })).code).toBe(0);
    const clock = await runCli(['clock', 'show', '--json'], { env: { SCANCTL_BASE_URL: baseUrl } });
    expect(JSON.parse(clock.stdout).now).toMatch(/^2026-01-01T09:/);
    const minted = await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.SCANCTL_SECRET_KEY}`, 'content-type': 'application/json' },
      body: '{"host_user_ref":"member_ci"}',
    });
    expect(minted.status).toBe(201);

    const stop = step('stop.mjs', {
      GITHUB_OUTPUT: files.GITHUB_OUTPUT,
      SCANCTL_SERVE_PID: env.SCANCTL_SERVE_PID!,
      SCANCTL_STATE_FILE: env.SCANCTL_STATE_FILE!,
    });
    expect(stop.status, stop.stdout).toBe(0);
    expect(() => process.kill(Number(env.SCANCTL_SERVE_PID), 0)).toThrow();
    const state = JSON.parse(readFileSync(env.SCANCTL_STATE_FILE!, 'utf8'));
    expect(state).toMatchObject({ format: 'scanctl-state', includes_secrets: true });
    expect(state.tables.sessions).toHaveLength(1);
    expect(readFileSync(files.GITHUB_OUTPUT, 'utf8')).toContain(`state-file=${env.SCANCTL_STATE_FILE}\n`);
  });

  it('start fails the step with one ::error line when serve refuses its input, and leaves nothing running', () => {
    const files = runner();
    const start = step('start.mjs', { ...files, INPUT_PORT: '0', INPUT_CLOCK_START: 'tomorrow' });
    expect(start.status).toBe(1);
    expect(start.stdout).toMatch(/^::error title=scanctl::scanctl serve: .*(clock-start|a time such as)/m);
    expect(readFileSync(files.GITHUB_ENV, 'utf8')).toBe('');
  });

  it('stop without a start says so and fails', () => {
    const stop = step('stop.mjs', {});
    expect(stop.status).toBe(1);
    expect(stop.stdout).toContain('::error title=scanctl::no scanctl serve to stop');
  });

  it('action.yml runs these scripts with the inputs the docs name, and uploads the state file in the stop step', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['version', 'port', 'fixtures', 'seed', 'clock-start', 'stop']));
    const steps = action.runs.steps as Array<{
      id?: string;
      run?: string;
      env?: Record<string, string>;
      uses?: string;
      with?: Record<string, string>;
    }>;
    const start = steps.find((s) => s.id === 'start')!;
    expect(start.run).toContain('.github/action/start.mjs');
    expect(Object.keys(start.env!)).toEqual(['INPUT_PORT', 'INPUT_FIXTURES', 'INPUT_SEED', 'INPUT_CLOCK_START']);
    expect(steps.find((s) => s.id === 'stop')!.run).toContain('.github/action/stop.mjs');
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with!.path).toBe('${{ steps.stop.outputs.state-file }}');
    for (const s of steps.filter((s) => s.run)) expect(existsSync(join(ROOT, /\.github\/action\/[\w.]+/.exec(s.run!)![0]))).toBe(true);
  });
});
