import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearServeState, findServeState, STATE_FILE, writeServeState } from '../../src/emulator/serve-state.js';
import { runCommand } from '../helpers/cli-in-process.js';
import { tempDir } from '../helpers/temp.js';

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('finding the emulator: .scanctl/serve.json', () => {
  it('commands find it from a subfolder, looking upward as git does', async () => {
    const root = tempDir('scanctl-discovery-');
    writeServeState(join(root, STATE_FILE), { pid: process.pid, base_url: 'http://127.0.0.1:7999', db: ':memory:' });
    const sub = join(root, 'app', 'src');
    mkdirSync(sub, { recursive: true });
    expect(findServeState(sub)).toMatchObject({ running: true, state: { base_url: 'http://127.0.0.1:7999' } });
    // No emulator answers in-process here: the connection error names the URL it found.
    const res = await runCommand(['clock', 'show'], { cwd: sub });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('could not reach http://127.0.0.1:7999');
    clearServeState(join(root, STATE_FILE));
  });

  it('a record whose pid is gone: "the emulator is not running", exit 4 (not a dead port)', async () => {
    const root = tempDir('scanctl-discovery-');
    const pid = deadPid();
    writeServeState(join(root, STATE_FILE), { pid, base_url: 'http://127.0.0.1:7998', db: 'x.db' });
    const res = await runCommand(['clock', 'show'], { cwd: root });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(new RegExp(`^scanctl: the emulator is not running: .*serve\\.json names pid ${pid} \\(http://127\\.0\\.0\\.1:7998\\), which has exited\\n`));
    const json = await runCommand(['clock', 'show', '--json'], { cwd: root });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'emulator_not_running' }, exit_code: 4 });
  });

  it('two serves in one folder: stopping either never deletes the record of the other', () => {
    const file = join(tempDir('scanctl-discovery-'), STATE_FILE);
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
    const file = join(tempDir('scanctl-discovery-'), STATE_FILE);
    writeServeState(file, { pid: process.pid, base_url: 'http://127.0.0.1:7003', db: 'a.db' });
    writeFileSync(file, JSON.stringify({ pid: deadPid(), base_url: 'http://127.0.0.1:7004', db: 'b.db' }));
    expect(findServeState(join(file, '..', '..'))).toMatchObject({ running: true, state: { base_url: 'http://127.0.0.1:7003' } });
    clearServeState(file);
  });
});
