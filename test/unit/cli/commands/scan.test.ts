import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../helpers/cli-in-process.js';
import { testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

/** `scanctl scan simulate` in each mode, then the billing view: in-process against one emulator. */
describe('scanctl scan simulate, usage, scans, device (in-process)', () => {
  let emulator: TestEmulator;
  const cli = (...args: string[]) => runCommand(args, { emulator });
  const simulate = async (...args: string[]) => {
    const res = await cli('scan', 'simulate', '--json', ...args);
    const lines = res.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    return { ...res, scans: lines };
  };
  const month = '2026-11';

  beforeAll(() => {
    emulator = testEmulator();
  });

  it('completed test-key scan: recorded, never billed, the result refused with delivery off', async () => {
    const res = await simulate('--user', 'm_test');
    expect(res.code).toBe(0);
    expect(res.scans).toHaveLength(1);
    expect(res.scans[0]).toMatchObject({ object: 'simulated_scan', env: 'test', state: 'recorded', billable: false, result: 'refused' });
    expect(res.scans[0].refusal).toMatchObject({ step: 'result_upload', code: 'results_delivery_disabled' });
    expect(res.scans[0].scan_id).toMatch(/^scn_/);
  });

  it('human output names each step and the ids; several scans print one plain line each off a terminal', async () => {
    const one = await cli('scan', 'simulate', '--user', 'm_aband', '--outcome', 'abandoned');
    expect(one.code).toBe(0);
    for (const word of ['minted', 'enrolled', 'model key', 'reported', 'find it again']) expect(one.stdout).toContain(word);
    expect(one.stdout).toMatch(/scan scn_\w+ abandoned/);
    const many = await cli('scan', 'simulate', '--user', 'm_live', '--env', 'live', '--count', '2');
    expect(many.code).toBe(0);
    expect(many.stdout).toMatch(/scan 1\/2 +scn_\w+ +completed +billable=true/);
    expect(many.stdout).toMatch(/scan 2\/2 /);
    expect(many.stdout).toContain('2 scans: 2 recorded (2 billable)');
  });

  it('failed live scan is recorded and not billed', async () => {
    const res = await simulate('--user', 'm_fail', '--env', 'live', '--outcome', 'failed');
    expect(res.code).toBe(0);
    expect(res.scans[0]).toMatchObject({ state: 'recorded', outcome: 'failed', billable: false, result: 'none' });
  });

  it('expected refusals exit 0 and show the refusal: --no-scope, --bundle-id, --team-id', async () => {
    const scope = await simulate('--user', 'm_noscope', '--no-scope');
    expect(scope.code).toBe(0);
    expect(scope.scans[0]).toMatchObject({ state: 'refused', refusal: { status: 403, code: 'insufficient_scope' } });
    const bundle = await simulate('--user', 'm_attest', '--bundle-id', 'com.example.other');
    expect(bundle.code).toBe(0);
    expect(bundle.scans[0]).toMatchObject({ state: 'refused', scan_id: null, refusal: { step: 'enroll', code: 'attestation_invalid' } });
    const team = await cli('scan', 'simulate', '--user', 'm_attest', '--team-id', 'ZZZZZZZZZZ');
    expect(team.code).toBe(0);
    expect(team.stdout).toContain('REFUSED');
    expect(team.stdout).toContain('attestation_invalid');
  });

  it('--duplicate-report with results delivery on: stored once, reported twice, charged once', async () => {
    expect((await cli('app', 'update', '--results-delivery', 'on')).code).toBe(0);
    const res = await simulate('--user', 'm_dup', '--env', 'live', '--duplicate-report');
    expect(res.code).toBe(0);
    const steps = res.scans[0].steps.map((s: { step: string }) => s.step);
    expect(steps.filter((s: string) => s === 'result_upload')).toHaveLength(2);
    expect(res.scans[0]).toMatchObject({ result: 'stored', billable: true });
    const list = JSON.parse((await cli('scan', 'list', '--user', 'm_dup', '--json')).stdout);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: res.scans[0].scan_id, reports: 3, result_stored: true, billable: true });
  });

  it('DEV-3: --installation, installation block/unblock and --reinstall', async () => {
    const first = await simulate('--user', 'm_blocked', '--installation', 'dev-1');
    expect(first.scans[0]).toMatchObject({ installation_id: 'dev-1', state: 'recorded' });
    const block = await cli('installation', 'block', 'dev-1');
    expect(block.code).toBe(0);
    expect(block.stdout).toContain('dev-1 is blocked');
    const blocked = await simulate('--user', 'm_blocked', '--installation', 'dev-1');
    expect(blocked.code).toBe(0);
    expect(blocked.scans[0]).toMatchObject({ state: 'refused', refusal: { code: 'installation_blocked' } });
    expect((await cli('installation', 'unblock', 'dev-1')).stdout).toContain('dev-1 is enrolled');
    const reinstall = await simulate('--user', 'm_reinstall', '--installation', 'dev-1', '--reinstall', '--outcome', 'abandoned');
    const enroll = reinstall.scans[0].steps.find((s: { step: string }) => s.step === 'enroll');
    expect(enroll).toMatchObject({ reenrolled: true, enrollments: 2 });
    const devices = JSON.parse((await cli('installation', 'list', '--json')).stdout);
    expect(devices.data.find((d: { id: string }) => d.id === 'dev-1')).toMatchObject({ status: 'enrolled', enrollments: 2 });
  });

  it('unexpected failures exit non-zero with the step: a bad key (EXIT.api), no server (EXIT.connection)', async () => {
    const bad = await cli(
      'scan',
      'simulate',
      '--user',
      'm_x',
      '--key',
      'sk_test_doesNotExist000000000000',
      '--bundle-id',
      'b',
      '--team-id',
      't',
    );
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^scanctl: scan simulate failed at step mint: POST \/v1\/sessions: 401 invalid_api_key/);
    const down = await runCommand([
      'scan',
      'simulate',
      '--user',
      'm_x',
      '--key',
      'sk_test_doesNotExist000000000000',
      '--bundle-id',
      'b',
      '--team-id',
      't',
      '--base-url',
      'http://127.0.0.1:9',
    ]);
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('failed at step mint');
  });

  it('BILL-4: an offline-late scan across a month boundary is billed in the earlier month; usage --json shows every count', async () => {
    expect((await cli('clock', 'set', '2026-12-01T00:30:00.000Z')).code).toBe(0);
    const res = await simulate('--user', 'm_offline', '--env', 'live', '--offline-late', '2h');
    expect(res.code).toBe(0);
    expect(res.scans[0].occurred_at.slice(0, 7)).toBe(month);
    expect(res.scans[0].steps.filter((s: { step: string }) => s.step === 'mint')).toHaveLength(2);

    const usage = JSON.parse((await cli('usage', '--json')).stdout);
    expect(usage.data.find((r: { month: string }) => r.month === month)).toEqual({
      object: 'usage',
      app_id: 'app_demo',
      month,
      monthly_active_users: 3, // m_live, m_dup, m_offline
      billable_scans: 4, // 2 + 1 + 1
      test_scans: 4, // m_test, m_aband, m_blocked, m_reinstall
      test_active_users: 2, // m_test, m_blocked
      completed_scans: 6,
      failed_scans: 1,
      abandoned_scans: 2,
    });
    expect(usage.data.find((r: { month: string }) => r.month === '2026-12')).toBeUndefined();
    const human = await cli('usage', '--month', month);
    expect(human.stdout).toMatch(new RegExp(`app_demo\\s+${month}\\s+3\\s+4\\s+4\\s+1\\s+2`));
  });
});
