import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../helpers/cli-in-process.js';
import { testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

const DEMO_SECRET = 'sk_test_demoSecretKey00000000000001';

describe('scanctl faults, state, logs tail --no-follow (in-process)', () => {
  let emulator: TestEmulator;
  let dir: string;
  const cli = (args: string[]) => runCommand(args, { emulator });
  beforeAll(() => {
    emulator = testEmulator();
    dir = mkdtempSync(join(tmpdir(), 'scanctl-state-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ERR-1, CHOICE-4: faults add makes POST /v1/sessions answer 429 rate_limited for the next 2 calls; list; clear', async () => {
    const added = await cli([
      'faults',
      'add',
      '--route',
      'POST /v1/sessions',
      '--status',
      '429',
      '--code',
      'rate_limited',
      '--count',
      '2',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const fault = JSON.parse(added.stdout);
    expect(fault).toMatchObject({ object: 'fault', method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', remaining: 2 });
    for (let i = 0; i < 2; i++) {
      const minted = await cli(['session', 'mint', '--user', 'member_1']);
      expect(minted.code).toBe(3);
      expect(minted.stderr).toContain('429 rate_limit_error rate_limited');
    }
    expect((await cli(['session', 'mint', '--user', 'member_1'])).code).toBe(0);
    const list = await cli(['faults', 'list']);
    expect(list.stdout).toMatch(new RegExp(`${fault.id}\\s+POST /v1/sessions\\s+429 rate_limited\\s+0/2 left\\s+2/2\\s+\\d+\\s+used up`));
    const cleared = await cli(['faults', 'clear', fault.id]);
    expect(cleared.stdout.trim()).toBe(`Cleared ${fault.id}.`);
    expect((await cli(['faults', 'clear', fault.id])).code).toBe(3);
  });

  it('faults add refuses a code that is not lowercase snake case, the control plane, and --count with --probability (exit 2)', async () => {
    for (const args of [
      ['--route', 'POST /v1/sessions', '--status', '429', '--code', 'Rate-Limited'],
      ['--route', 'GET /_scanctl/info', '--status', '503', '--code', 'down'],
      ['--route', 'POST /v1/sessions', '--status', '503', '--code', 'down', '--count', '1', '--probability', '0.5'],
      ['--route', 'POST /v1/sessions', '--status', '200', '--code', 'ok'],
    ]) {
      const r = await cli(['faults', 'add', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^scanctl: /);
    }
  });

  it('a probability fault with --seed replays the same failures on a fresh emulator', async () => {
    const run = async () => {
      const other = testEmulator();
      await runCommand(
        [
          'faults',
          'add',
          '--route',
          'POST /v1/sessions',
          '--status',
          '503',
          '--code',
          'unavailable',
          '--probability',
          '0.5',
          '--seed',
          '42',
        ],
        { emulator: other },
      );
      const codes: number[] = [];
      for (let i = 0; i < 8; i++) codes.push((await runCommand(['session', 'mint', '--user', 'm'], { emulator: other })).code);
      return codes;
    };
    const first = await run();
    expect(first).toContain(3);
    expect(first).toContain(0);
    expect(await run()).toEqual(first);
  });

  it('state export -> reset -> import -> export is byte-identical; no secret in the file unless --include-secrets', async () => {
    await cli(['session', 'mint', '--user', 'member_state']);
    await cli(['faults', 'add', '--route', 'DELETE /v1/results', '--status', '500', '--code', 'boom', '--count', '5']);
    await cli(['webhook', 'chaos', '--duplicate', '0.2', '--seed', '7']);
    await cli(['clock', 'advance', '2h']);
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    const exported = await cli(['state', 'export', a]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Exported \d+ rows of \d+ tables \(schema version \d+\) to /);
    const text = readFileSync(a, 'utf8');
    expect(text).not.toContain(DEMO_SECRET);
    expect(text).not.toContain('whsec_demoSigningSecret0000000000000001');
    const state = JSON.parse(text);
    expect(state.clock_offset_ms).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(state.tables.chaos_settings).toHaveLength(1);

    expect((await cli(['state', 'reset'])).stdout).toMatch(
      /^Reset the emulator: every table emptied, re-seeded from .*default\.json \(apps: app_demo, app_trial\)/,
    );
    expect((await cli(['faults', 'list'])).stdout.trim()).toBe('No faults.');
    const imported = await cli(['state', 'import', a]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported \d+ rows of \d+ tables from /);
    expect((await cli(['state', 'export', b])).code).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(text);

    const withSecrets = await cli(['state', 'export', '-', '--include-secrets']);
    expect(JSON.parse(withSecrets.stdout).tables.apps.find((x: { id: string }) => x.id === 'app_demo').webhook_secret).toBe(
      'whsec_demoSigningSecret0000000000000001',
    );
    await cli(['faults', 'clear']);
    await cli(['webhook', 'chaos', 'off']);
  });

  it('state import refuses a newer schema version and a malformed file, with a clear message', async () => {
    const state = JSON.parse((await cli(['state', 'export', '-'])).stdout);
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ ...state, schema_version: state.schema_version + 1 }));
    const refused = await cli(['state', 'import', newer]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`schema version ${state.schema_version + 1}, newer than this emulator's ${state.schema_version}`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...state, tables: { apps: 'nope' } }));
    const malformed = await cli(['state', 'import', bad]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('tables.apps');
  });

  it('logs tail: recent lines with key display form and env, filters, --json; never a secret', async () => {
    await cli(['session', 'mint', '--user', 'member_log']);
    await cli(['session', 'mint', '--user', 'member_log', '--key', 'pk_test_demoPublishableKey000000001']);
    const plain = await cli(['logs', 'tail', '--no-follow', '-n', '2']);
    const lines = plain.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\S+Z\s+POST\s+\/v1\/sessions\s+201\s+sk_test_\.\.\.0001 \(test\)\s+[\d.]+ ms$/);
    expect(lines[1]).toMatch(/POST\s+\/v1\/sessions\s+401\s+-\s+[\d.]+ ms\s+publishable_key_used$/);
    const json = await cli(['logs', 'tail', '--no-follow', '--status', '4xx', '--json', '-n', '1']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      method: 'POST',
      path: '/v1/sessions',
      status: 401,
      error_code: 'publishable_key_used',
    });
    const all = await cli(['logs', 'tail', '--no-follow', '-n', '1000', '--all', '--json']);
    expect(all.stdout).not.toContain(DEMO_SECRET);
    expect(all.stdout).not.toContain('whsec_demo');
    expect(all.stdout).toContain('/_scanctl/');
    expect((await cli(['logs', 'tail', '--status', 'abc'])).code).toBe(2);
  });
});
