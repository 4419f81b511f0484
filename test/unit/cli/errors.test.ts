import { describe, expect, it } from 'vitest';
import { databaseOpenError } from '../../../src/cli/database-errors.js';
import type { Emulator } from '../../../src/emulator/create-emulator.js';
import { runCommand } from '../../helpers/cli-in-process.js';
import { testEmulator } from '../../helpers/emulator.js';

describe('messages that say what happened', () => {
  it('scan simulate --app app_nope says there is no such app (not "no test secret key")', async () => {
    const res = await runCommand(['scan', 'simulate', '--user', 'm', '--app', 'app_nope'], { emulator: testEmulator() });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^scanctl: the emulator has no app app_nope\n/);
    expect(res.stderr).not.toContain('secret key');
  });

  it('AUTH-8: key_revoked after a rotation hints at passing the new key with --key', async () => {
    const emulator = testEmulator();
    await runCommand(['key', 'rotate'], { emulator });
    await runCommand(['clock', 'advance', '25h'], { emulator });
    const res = await runCommand(['session', 'mint', '--user', 'm'], { emulator });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/key_revoked: .*\n {2}hint: .*pass the new key with --key/);
  });

  it('SES-7: insufficient_scope says the token lacks scan.create, with no advice about test keys', async () => {
    const res = await runCommand(['scan', 'simulate', '--user', 'm', '--no-scope', '--json'], { emulator: testEmulator() });
    const scan = JSON.parse(res.stdout.trim().split('\n')[0]!);
    expect(scan.refusal).toMatchObject({ code: 'insufficient_scope' });
    expect(scan.refusal.message).toBe('This session token lacks the scan.create scope, so it cannot report scans: nothing was recorded.');
  });

  it('scan simulate --outcome abandoned --wait (and --no-scope --wait) has nothing to wait for, says why, and exits 0', async () => {
    const emulator = testEmulator();
    await runCommand(['app', 'update', '--webhook-url', 'http://127.0.0.1:9/hooks'], { emulator });
    const abandoned = await runCommand(['scan', 'simulate', '--user', 'm', '--outcome', 'abandoned', '--wait'], { emulator });
    expect(abandoned.code).toBe(0);
    expect(abandoned.stdout).toContain('webhooks: nothing to wait for (these scans send no event: an abandoned scan sends none)');
    expect(abandoned.stdout).not.toContain('no webhook_url');
    const noScope = await runCommand(['scan', 'simulate', '--user', 'm', '--no-scope', '--wait'], { emulator });
    expect(noScope.code).toBe(0);
    expect(noScope.stdout).toContain('webhooks: nothing to wait for (no scan was recorded, so no event is sent)');
    const noUrl = await runCommand(['scan', 'simulate', '--user', 'm', '--wait'], { emulator: testEmulator() });
    expect(noUrl.stdout).toContain('webhooks: nothing to wait for (the app has no webhook_url: nothing is delivered)');
  });

  it('a read-only database says read-only, not "disk I/O error"', () => {
    // SQLite's answer to an exclusive lock on a file without write permission (seen as a non-root user).
    const ioerr = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_LOCK' });
    expect(databaseOpenError(ioerr, 'data/emu.db', (path) => path !== 'data/emu.db')!.message).toBe(
      'the database data/emu.db is read-only: scanctl needs to write to it',
    );
    const folder = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY_DIRECTORY' });
    expect(databaseOpenError(folder, 'data/emu.db', (path) => path === 'data/emu.db')!.message).toMatch(
      /^the folder of the database data\/emu\.db is read-only/,
    );
    const notDb = Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
    expect(databaseOpenError(notDb, 'x.db', () => true)!.message).toBe('cannot open the database x.db: file is not a database');
    expect(databaseOpenError(new Error('other'), 'x.db')).toBeNull();
  });

  it('Ctrl+C during scan simulate --count says how far it got and exits 130', async () => {
    const emulator = testEmulator();
    let interrupt = () => {};
    let mints = 0;
    const counting = {
      app: {
        request: (input: string, init?: RequestInit) => {
          if (init?.method === 'POST' && new URL(input).pathname === '/v1/sessions' && ++mints === 2) interrupt();
          return emulator.app.request(input, init);
        },
      },
    } as unknown as Pick<Emulator, 'app'>;
    const res = await runCommand(['scan', 'simulate', '--user', 'm_int', '--count', '5'], {
      emulator: counting,
      onInterruptListener: (send) => (interrupt = send),
    });
    expect(res.code).toBe(130);
    expect(res.stdout).toMatch(/scan 1\/5 /);
    expect(res.stdout).toMatch(/scan 2\/5 /);
    expect(res.stdout).not.toMatch(/scan 3\/5 /);
    expect(res.stderr).toMatch(
      /^scanctl: interrupted after 2 of 5 scans \(2 recorded\)\n {2}hint: the recorded ones stay: scanctl scan list --user m_int\n$/,
    );
    const listed = JSON.parse((await runCommand(['scan', 'list', '--user', 'm_int', '--json'], { emulator })).stdout);
    expect(listed.data).toHaveLength(2);
  });
});
