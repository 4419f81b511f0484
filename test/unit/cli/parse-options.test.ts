import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { processIo } from '../../../src/cli/io.js';
import { buildProgram } from '../../../src/cli/program.js';
import { runCommand } from '../../helpers/cli-in-process.js';
import { testEmulator } from '../../helpers/emulator.js';

/** Every leaf command, by its path (`scan simulate`), with what it requires. */
function leaves(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  const out: Array<{ path: string[]; command: Command }> = [];
  for (const sub of command.commands) {
    const subPath = [...path, sub.name()];
    if (sub.commands.length === 0) out.push({ path: subPath, command: sub });
    else out.push(...leaves(sub, subPath));
  }
  return out;
}

const ONE_LINE_ERROR = /^scanctl: [^\n]+\n( {2}hint: [^\n]+\n)?$/;

describe('option parsing: every value checked while parsing, before any request', () => {
  it('app update --webhook-url URL --quota abc exits 2 and sends no PATCH (no partial update)', async () => {
    const emulator = testEmulator();
    const res = await runCommand(['app', 'update', '--webhook-url', 'https://example.test/new', '--quota', 'abc'], { emulator });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--quota <n>' argument 'abc' is invalid\. Expected a whole number from 0 to 1000000000/);
    expect(ONE_LINE_ERROR.test(res.stderr)).toBe(true);
    expect(emulator.requestLog.recent(() => true, null, undefined).filter((l) => l.method === 'PATCH')).toEqual([]);
    expect(emulator.store.apps.get('app_demo')!.webhook_url).toBeNull();
  });

  it('clock advance 1000000w names the limit', async () => {
    const res = await runCommand(['clock', 'advance', '1000000w']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Expected a duration of at most 100 years (36525d)');
    const soon = await runCommand(['clock', 'advance', 'soon']);
    expect(soon.stderr).toContain('Expected a duration such as 90s, 15m, 24h or 3d');
    expect((await runCommand(['clock', 'set', '2026-12-01'])).stderr).toContain('Expected an RFC 3339 time');
  });

  it('a bad URL exits 2 everywhere', async () => {
    const emulator = testEmulator();
    for (const args of [
      ['app', 'update', '--webhook-url', 'not-a-url'],
      ['app', 'update', '--webhook-url', 'ftp://example.test/x'],
      ['webhook', 'check', 'ftp://x', '--secret', 'whsec_x'],
      ['openapi', '--server-url', 'nope'],
      ['clock', 'show', '--base-url', 'ftp://x'],
    ]) {
      const res = await runCommand(args, { emulator });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(ONE_LINE_ERROR);
    }
  });

  it('numbers, probabilities and enums are refused with the range they must be in', async () => {
    const cases: Array<[string[], string]> = [
      [['scan', 'simulate', '--user', 'm', '--count', '0'], 'a whole number from 1 to 10000'],
      [['scan', 'simulate', '--user', 'm', '--count', '1e3'], 'a whole number from 1 to 10000'],
      [['webhook', 'chaos', '--drop', '1.5'], 'a number from 0 to 1'],
      [['webhook', 'deliveries', '--limit', '5000'], 'a whole number from 1 to 1000'],
      [['faults', 'add', '--route', 'POST /v1/sessions', '--status', '200', '--code', 'x'], 'a whole number from 400 to 599'],
      [['key', 'create', '--env', 'prod'], 'Allowed choices are test, live'],
      [['usage', '--month', '2026-13'], 'a month as YYYY-MM'],
    ];
    for (const [args, expected] of cases) {
      const res = await runCommand(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(expected);
    }
    // The message points at the help of the command that was reached.
    expect((await runCommand(['--app', 'app_demo', 'scan', 'simulate', '--user', 'm', '--count', 'abc'])).stderr).toMatch(
      /\(see scanctl scan simulate --help\)\n$/,
    );
    expect((await runCommand(['scan', 'list', '--limit', '0'])).stderr).toMatch(/\(see scanctl scan list --help\)\n$/);
  });

  it('scan list is the home of listing scans; the pre-release group names scans and device are gone', async () => {
    const emulator = testEmulator();
    await runCommand(['scan', 'simulate', '--user', 'm_list', '--outcome', 'abandoned'], { emulator });
    const res = await runCommand(['scan', 'list', '--json'], { emulator });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).data[0]).toMatchObject({ host_user_ref: 'm_list', status: 'abandoned' });
    for (const group of ['scans', 'device']) {
      const old = await runCommand([group, 'list'], { emulator });
      expect(old.code, group).not.toBe(0);
      expect(old.stderr, group).toMatch(/unknown command/);
    }
  });
});

describe('--help', () => {
  it('scanctl help scan simulate prints the help of simulate, not of the group', async () => {
    const res = await runCommand(['help', 'scan', 'simulate']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: scanctl scan(\|scans)? simulate \[options\]/);
    expect(res.stdout).toContain('--outcome <outcome>');
    expect((await runCommand(['help', 'scan'])).stdout).toMatch(/^Usage: scanctl scan(\|scans)? \[options\] \[command\]/);
    const unknown = await runCommand(['help', 'scan', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^scanctl: no command "scan nope"/);
  });

  it('subcommand help lists the global options (--json, --base-url, --app)', async () => {
    for (const args of [
      ['scan', 'simulate', '--help'],
      ['key', 'list', '--help'],
      ['help', 'clock', 'advance'],
    ]) {
      const res = await runCommand(args);
      expect(res.stdout, args.join(' ')).toMatch(/Global Options:[\s\S]*--base-url <url>[\s\S]*--app <id>[\s\S]*--json/);
    }
  });

  it('no stack trace for any bad invocation of any command: an unknown option or a missing argument exits 2 with one line', async () => {
    const all = leaves(await buildProgram('test', processIo()));
    expect(all.length).toBeGreaterThan(30);
    for (const { path, command } of all) {
      const unknown = await runCommand([...path, '--no-such-option']);
      expect(unknown.code, path.join(' ')).toBe(2);
      expect(unknown.stdout, path.join(' ')).toBe('');
      expect(unknown.stderr, path.join(' ')).toMatch(ONE_LINE_ERROR);
      const requiresSomething = command.registeredArguments.some((a) => a.required) || command.options.some((o) => o.mandatory);
      if (!requiresSomething) continue;
      const missing = await runCommand(path);
      expect(missing.code, `${path.join(' ')} (nothing given)`).toBe(2);
      expect(missing.stderr, path.join(' ')).toMatch(ONE_LINE_ERROR);
      expect(missing.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
