import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

// install.sh against a release folder served on 127.0.0.1, made from this build's executable: the
// archive as the release names it and SHA256SUMS in sha256sum's format. Under dash and busybox sh.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXE = join(ROOT, 'dist', 'exe', 'scanctl');
const SCRIPT = join(ROOT, 'install.sh');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const archive = `scanctl-${version}-linux-${process.arch}.tar.gz`;
const shells = ['/bin/dash', '/bin/busybox'].filter((shell) => existsSync(shell));

let server: Server;
let url: string;
/** What the release folder serves: name -> bytes (a test swaps SHA256SUMS). */
const files = new Map<string, Buffer>();

beforeAll(async () => {
  const dir = tempDir('scanctl-release-');
  // -1: the archive's bytes do not matter here, its checksum does (the release's is gzip -9).
  execFileSync('sh', ['-c', `tar -C "$(dirname "$1")" -cf - scanctl | gzip -1 > "$2"`, 'sh', EXE, join(dir, archive)]);
  files.set(archive, readFileSync(join(dir, archive)));
  files.set('SHA256SUMS', Buffer.from(`${createHash('sha256').update(files.get(archive)!).digest('hex')}  ${archive}\n`));
  server = createServer((req, res) => {
    const prefix = `/releases/v${version}/`;
    const body = req.url?.startsWith(prefix) ? files.get(req.url.slice(prefix.length)) : undefined;
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/v${version}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Installed {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
  work: string;
}

/** Runs install.sh in `shell` with its own TMPDIR (to see that it leaves nothing there). */
function install(shell: string, env: Record<string, string> = {}): Promise<Installed> {
  const home = tempDir('scanctl-install-home-');
  const work = join(home, 'tmp');
  mkdirSync(work);
  const dir = join(home, 'bin');
  const args = shell.endsWith('busybox') ? ['sh', SCRIPT] : [SCRIPT];
  return new Promise((resolve, reject) => {
    const child = spawn(shell, args, {
      env: { PATH: process.env.PATH!, HOME: home, TMPDIR: work, SCANCTL_INSTALL_URL: url, SCANCTL_INSTALL_DIR: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, dir, work }));
  });
}

const leftIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe.each(shells)('install.sh under %s', (shell) => {
  it('downloads the archive and SHA256SUMS, checks the sum, installs, and says what to put on PATH', async () => {
    const result = await install(shell);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(leftIn(result.dir)).toEqual(['scanctl']);
    expect(execFileSync(join(result.dir, 'scanctl'), ['--version'], { encoding: 'utf8' })).toMatch(/^\S+ \(single executable, Node v24\./);
    expect(result.stdout).toContain(`installed ${join(result.dir, 'scanctl')}: scanctl ${version} (single executable`);
    expect(result.stdout).toContain(`${result.dir} is not on your PATH`);
    expect(leftIn(result.work)).toEqual([]);
  });

  it('a tampered SHA256SUMS: one line, exit 1, nothing installed and nothing left', async () => {
    const honest = files.get('SHA256SUMS')!;
    files.set('SHA256SUMS', Buffer.from(`${'0'.repeat(64)}  ${archive}\n`));
    try {
      const result = await install(shell);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^install.sh: ${archive.replaceAll('.', '\\.')} does not match SHA256SUMS \\(expected 0{64}, got [0-9a-f]{64}\\): nothing installed\\n$`,
        ),
      );
      expect(leftIn(result.dir)).toEqual([]);
      expect(leftIn(result.work)).toEqual([]);
    } finally {
      files.set('SHA256SUMS', honest);
    }
  });

  it('a missing asset, a version the release does not have, an unwritable folder, an unknown platform: one line each, nothing installed', async () => {
    const missing = await install(shell, { SCANCTL_INSTALL_URL: `${url}/nowhere` });
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `install.sh: cannot download ${url}/nowhere/SHA256SUMS (is SCANCTL_VERSION=latest a release?)\n`,
    ]);
    const other = await install(shell, { SCANCTL_VERSION: '9.9.9' });
    expect([other.code, other.stderr]).toEqual([
      1,
      `install.sh: ${url}/SHA256SUMS names no archive for linux-${process.arch} at version 9.9.9\n`,
    ]);
    const unwritable = await install(shell, { SCANCTL_INSTALL_DIR: '/dev/null/bin' });
    expect([unwritable.code, unwritable.stderr]).toEqual([
      1,
      'install.sh: cannot create /dev/null/bin: set SCANCTL_INSTALL_DIR to a folder you can write\n',
    ]);
    // uname says FreeBSD: a folder first on PATH with a uname of its own.
    const fake = tempDir('scanctl-install-uname-');
    writeFileSync(join(fake, 'uname'), '#!/bin/sh\n[ "$1" = -s ] && echo FreeBSD || echo amd64\n');
    chmodSync(join(fake, 'uname'), 0o755);
    const bsd = await install(shell, { PATH: `${fake}:${process.env.PATH!}` });
    expect([bsd.code, bsd.stderr]).toEqual([
      1,
      'install.sh: no scanctl executable for FreeBSD (there are: linux, darwin; Windows: download the .zip from the release)\n',
    ]);
    for (const result of [missing, other, unwritable, bsd]) {
      expect(leftIn(result.dir)).toEqual([]);
      expect(leftIn(result.work)).toEqual([]);
    }
  });
});
