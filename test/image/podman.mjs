// podman as the issue says it runs on these machines: rootful, runc, the host's network, no
// default ulimits (the machine's containers.conf would ask for ones it may not grant).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const confDir = mkdtempSync(join(tmpdir(), 'scanctl-podman-conf-'));
const CONTAINERS_CONF = join(confDir, 'containers.conf');
writeFileSync(CONTAINERS_CONF, '[containers]\ndefault_ulimits = []\n');
export const removePodmanConf = () => rmSync(confDir, { recursive: true, force: true });

export const RUNTIME = ['--runtime', '/usr/sbin/runc'];

/** Runs a command; its output, or a thrown error with its stderr when it fails (unless `allowFail`). */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, CONTAINERS_CONF, ...options.env },
    input: options.input,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', options.quiet === false ? 'inherit' : 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
    cwd: options.cwd,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !options.allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}: ${(result.stderr ?? '').trim().split('\n').slice(-15).join('\n')}`,
    );
  }
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

export const podman = (args, options) => run('podman', args, options);

/** Installs podman, runc and debootstrap with apt when one is missing (as root, as the issue says). */
export function ensureTools() {
  const missing = ['podman', 'runc', 'debootstrap'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status !== 0,
  );
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(`${missing.join(', ')} not installed, and installing needs root: apt-get install -y podman runc debootstrap`);
  console.log(`installing ${missing.join(', ')} with apt-get`);
  run('apt-get', ['update', '-q'], { quiet: false });
  run('apt-get', ['install', '-y', '-q', 'podman', 'runc', 'debootstrap'], { quiet: false, env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

/** `run` without blocking the event loop (a receiver in this process must answer meanwhile). */
export function runAsync(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, CONTAINERS_CONF }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ code, stdout, stderr }) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.trim()}`)),
    );
  });
}
