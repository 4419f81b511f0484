import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearServeState, findServeState, SERVE_RECORD_FILE, writeServeState } from '../../../src/emulator/serve-state.js';
import { readdirSync } from 'node:fs';
import { runCommand } from '../../helpers/cli-in-process.js';
import { testEmulator } from '../../helpers/emulator.js';
import { tempDir } from '../../helpers/temp.js';

/** The pid of a process that has exited. */
// Above the largest pid_max Linux allows (2^22) and macOS's 99,999: no process has it, and nothing is spawned.
const deadPid = () => 2 ** 22 + 1;
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('finding the emulator: .scanctl/serve.json', () => {
  it('commands find it from a subfolder, looking upward as git does', async () => {
    const root = tempDir('scanctl-discovery-');
    writeServeState(join(root, SERVE_RECORD_FILE), { pid: process.pid, base_url: 'http://127.0.0.1:7999', db: ':memory:' });
    const sub = join(root, 'app', 'src');
    mkdirSync(sub, { recursive: true });
    expect(findServeState(sub)).toMatchObject({ running: true, state: { base_url: 'http://127.0.0.1:7999' } });
    // No emulator answers in-process here: the connection error names the URL it found.
    const res = await runCommand(['clock', 'show'], { cwd: sub });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('could not reach http://127.0.0.1:7999');
    clearServeState(join(root, SERVE_RECORD_FILE));
  });

  it('a record whose pid is gone: "the emulator is not running", exit 4 (not a dead port)', async () => {
    const root = tempDir('scanctl-discovery-');
    const pid = deadPid();
    writeServeState(join(root, SERVE_RECORD_FILE), { pid, base_url: 'http://127.0.0.1:7998', db: 'x.db' });
    const res = await runCommand(['clock', 'show'], { cwd: root });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(
      new RegExp(
        `^scanctl: the emulator is not running: .*serve\\.json names pid ${pid} \\(http://127\\.0\\.0\\.1:7998\\), which has exited\\n`,
      ),
    );
    const json = await runCommand(['clock', 'show', '--json'], { cwd: root });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'emulator_not_running' }, exit_code: 4 });
  });

  it('two serves in one folder: stopping either never deletes the record of the other', () => {
    const file = join(tempDir('scanctl-discovery-'), SERVE_RECORD_FILE);
    const first = { pid: process.ppid, base_url: 'http://127.0.0.1:7001', db: 'a.db' };
    const second = { pid: process.pid, base_url: 'http://127.0.0.1:7002', db: 'b.db' };
    writeServeState(file, first);
    writeServeState(file, second);
    expect(read(file).pid).toBe(second.pid);
    // The newest stops: serve.json goes back to the first, still running.
    clearServeState(file, second.pid);
    expect(read(file)).toEqual(first);
    writeServeState(file, second);
    // The older stops: the newest's record stays.
    clearServeState(file, first.pid);
    expect(read(file)).toEqual(second);
    clearServeState(file, second.pid);
    expect(existsSync(file)).toBe(false);
  });

  it('a dead record beside a live one: commands use the live one', () => {
    const file = join(tempDir('scanctl-discovery-'), SERVE_RECORD_FILE);
    writeServeState(file, { pid: process.pid, base_url: 'http://127.0.0.1:7003', db: 'a.db' });
    writeFileSync(file, JSON.stringify({ pid: deadPid(), base_url: 'http://127.0.0.1:7004', db: 'b.db' }));
    expect(findServeState(join(file, '..', '..'))).toMatchObject({ running: true, state: { base_url: 'http://127.0.0.1:7003' } });
    clearServeState(file);
  });

  it('records left by kill -9 (serve-PID.json of a dead pid) are removed by the next serve that starts or stops there', () => {
    const file = join(tempDir('scanctl-discovery-'), SERVE_RECORD_FILE);
    mkdirSync(join(file, '..'));
    const dead = join(file, '..', `serve-${deadPid()}.json`);
    writeFileSync(dead, JSON.stringify({ pid: 1, base_url: 'http://127.0.0.1:7005', db: 'a.db' }));
    writeServeState(file, { pid: process.pid, base_url: 'http://127.0.0.1:7006', db: 'b.db' });
    expect(existsSync(dead)).toBe(false);
    const later = join(file, '..', `serve-${deadPid()}.json`);
    writeFileSync(later, '{}');
    clearServeState(file, process.pid);
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });
});

describe('an emulator not found by discovery (the default 127.0.0.1:7226)', () => {
  // No .scanctl/serve.json in a fresh temp folder or above it; no SCANCTL_BASE_URL.
  const undiscovered = { SCANCTL_BASE_URL: undefined };

  it('a command says which emulator it uses', async () => {
    const res = await runCommand(['clock', 'show'], { cwd: tempDir('scanctl-discovery-'), emulator: testEmulator(), env: undiscovered });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(
      /^scanctl: note: no \.scanctl\/serve\.json in .* or above: using the emulator at http:\/\/127\.0\.0\.1:7226 \(the default\)\n$/,
    );
  });

  it('state reset, state import, key revoke and results delete refuse it (exit 2, before any request); named, it goes', async () => {
    const cwd = tempDir('scanctl-discovery-');
    const file = join(cwd, 'state.json');
    writeFileSync(file, '{}');
    for (const args of [
      ['state', 'reset'],
      ['state', 'import', file],
      ['key', 'revoke'],
      ['results', 'delete', '--user', 'm'],
    ]) {
      // No emulator: a request would fail with exit 4.
      const res = await runCommand(args, { cwd, env: undiscovered });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(
        `scanctl: ${args[0]} ${args[1]} is not undone, and no emulator was found from this folder: refusing the default http://127.0.0.1:7226, which may be another project's`,
      );
      expect(res.stderr).toContain(
        'hint: run it in the folder where `scanctl serve` runs, or name the emulator with --base-url http://127.0.0.1:7226',
      );
    }
    const emu = testEmulator();
    expect(
      (await runCommand(['state', 'reset', '--base-url', 'http://127.0.0.1:7226'], { cwd, emulator: emu, env: undiscovered })).code,
    ).toBe(0);
  });
});
