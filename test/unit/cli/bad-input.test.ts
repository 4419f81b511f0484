import { describe, expect, it } from 'vitest';
import { FixtureError, parseFixtures } from '../../../src/emulator/fixture-file.js';
import { runCommand } from '../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../helpers/emulator.js';

describe('bad input refused early', () => {
  it('logs tail --since banana --no-follow exits 2 instead of printing everything', async () => {
    const emulator = testEmulator();
    await runCommand(['session', 'mint', '--user', 'm'], { emulator });
    const res = await runCommand(['logs', 'tail', '--since', 'banana', '--no-follow'], { emulator });
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toContain(
      "'--since <when>' argument 'banana' is invalid. Expected a duration such as 5m or 1h, or an RFC 3339 time",
    );
    const ok = await runCommand(['logs', 'tail', '--since', '5m', '--no-follow'], { emulator });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('/v1/sessions');
  });

  it('an unknown option is reported before a missing required one (session mint --bogus)', async () => {
    const res = await runCommand(['session', 'mint', '--bogus']);
    expect(res).toMatchObject({ code: 2, stdout: '', stderr: "scanctl: unknown option '--bogus' (see scanctl session mint --help)\n" });
    const missing = await runCommand(['session', 'mint']);
    expect(missing.stderr).toBe("scanctl: required option '--user <ref>' not specified (see scanctl session mint --help)\n");
  });

  it('faults add --route "POST /v1/sesions" (a typo) is refused, naming the nearest route; declared routes and patterns pass', async () => {
    const emulator = testEmulator();
    const typo = await runCommand(['faults', 'add', '--route', 'POST /v1/sesions', '--status', '503', '--code', 'down'], { emulator });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'scanctl: --route "POST /v1/sesions" matches no route of the service, so the fault would never fire\n  hint: did you mean "POST /v1/sessions"?\n',
    );
    expect((await runCommand(['faults', 'list', '--json'], { emulator })).stdout).toContain('"data": []');
    const wrongMethod = await runCommand(['faults', 'add', '--route', 'GET /v1/sessions', '--status', '503', '--code', 'down'], {
      emulator,
    });
    expect(wrongMethod.code).toBe(2);
    for (const route of [
      'POST /v1/sessions',
      '/v1/sessions',
      'PATCH /v1/apps/:app_id',
      'PATCH /v1/apps/app_demo',
      'PUT /v1/scans/*',
      '/v1/*',
    ]) {
      const res = await runCommand(['faults', 'add', '--route', route, '--status', '503', '--code', 'down'], { emulator });
      expect(res.code, `${route}: ${res.stderr}`).toBe(0);
    }
  });

  it('a file the user names that cannot be read is one line naming it and the reason, before any request (state import, webhook verify, --result)', async () => {
    const emulator = testEmulator();
    const cases: Array<[string[], string]> = [
      [['state', 'import', 'missing.json'], 'scanctl: missing.json cannot be read (ENOENT)'],
      [
        ['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', 'v1=00', 'missing.json'],
        'scanctl: missing.json cannot be read (ENOENT)',
      ],
      [['scan', 'simulate', '--user', 'm', '--result', 'missing.json'], 'scanctl: --result missing.json cannot be read (ENOENT)'],
    ];
    for (const [args, line] of cases) {
      const res = await runCommand(args, { emulator, cwd: '/nonexistent-scanctl-dir' });
      expect(res.stdout, args.join(' ')).toBe('');
      expect(res.stderr.split('\n')[0], args.join(' ')).toBe(line);
      expect(res.code, args.join(' ')).not.toBe(0);
    }
    expect(emulator.store.db.prepare('SELECT count(*) AS n FROM scans').get()).toEqual({ n: 0 });
  });

  it('scan simulate --timeout without --wait exits 2 before anything is simulated', async () => {
    const emulator = testEmulator();
    const res = await runCommand(['scan', 'simulate', '--user', 'm', '--timeout', '5s'], { emulator });
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toMatch(/^scanctl: --timeout applies only with --wait/);
    expect(emulator.store.db.prepare('SELECT count(*) AS n FROM scans').get()).toEqual({ n: 0 });
  });

  it('webhook verify with no input on a terminal says what it expects and exits 2 (no silent wait)', async () => {
    const res = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', 'abc'], { stdinIsTTY: true });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^scanctl: webhook verify checks the raw body bytes of a file or of stdin, and stdin is a terminal\n {2}hint: pass the body file/,
    );
  });

  it('fixture errors report every problem at once', () => {
    const text = JSON.stringify({
      accounts: [{ id: 'acct_1' }],
      apps: [
        { id: 'nope', account_id: 'acct_1', name: 'A', bundle_id: 'b', team_id: 'SHORT', colour: 'red' },
        { id: 'app_b', account_id: 'acct_1', name: '', bundle_id: 'b', team_id: 'A1B2C3D4E5' },
      ],
    });
    let error: FixtureError | undefined;
    try {
      parseFixtures(text, 'mine.json');
    } catch (e) {
      error = e as FixtureError;
    }
    expect(error).toBeInstanceOf(FixtureError);
    expect(error!.problems.map((p) => p.field).sort()).toEqual(['apps[0].colour', 'apps[0].id', 'apps[0].team_id', 'apps[1].name']);
    expect(error!.message).toMatch(/^mine\.json: 4 problems: /);
    expect(error!.message).not.toContain('\n');
  });
});
