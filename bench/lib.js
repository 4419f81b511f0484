// Shared helpers of the benchmarks: timing child processes, starting the built emulator, load.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, freemem, totalmem, tmpdir, platform, release, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'scanctl.js');

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function tempDir(prefix = 'scanctl-bench-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Milliseconds from spawn to exit of `node ...args`; fails on a non-zero exit. */
export function timeProcess(args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

/**
 * Runs several timed commands interleaved (a, b, a, b, ...) so that machine noise falls on
 * both sides alike; returns the median of each.
 */
export async function interleavedMedians(commands, runs, warmup = 2) {
  const samples = commands.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    for (let c = 0; c < commands.length; c++) {
      const ms = await commands[c]();
      if (i >= warmup) samples[c].push(ms);
    }
  }
  return samples.map(median);
}

/**
 * Starts the BUILT `scanctl serve --port 0 --json` and resolves at its ready line with the
 * time it took, the parsed line, and a stop function.
 */
export function startServe(extraArgs = [], { dir = tempDir(), env = {}, nodeArgs = [] } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--port', '0', '--json', '--db', join(dir, 'emulator.db'), ...extraArgs], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not become ready: ${stderr}`));
    }, 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const readyMs = performance.now() - started;
      let ready;
      try {
        ready = JSON.parse(line);
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`serve's first line is not JSON: ${line}`));
        return;
      }
      resolve({
        child,
        dir,
        readyMs,
        ready,
        baseUrl: ready.base_url,
        stderr: () => stderr,
        async stop() {
          child.kill('SIGTERM');
          const code = await exited;
          return code;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before ready: ${stderr}`));
    });
  });
}

/** A fixture file for load: the demo app with a quota no benchmark reaches. */
export function loadFixtures(dir) {
  const fixtures = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'default.json'), 'utf8'));
  for (const app of fixtures.apps) app.daily_session_quota = 1_000_000_000;
  const file = join(dir, 'bench-fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures, null, 2));
  return { file, testSecret: fixtures.apps[0].keys.test.secret, appId: fixtures.apps[0].id };
}

/** Starts a child node process running `script` and resolves with the URL it prints first. */
export function startChildServer(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout });
    const exited = new Promise((done) => child.once('exit', done));
    lines.once('line', (line) => resolve({ child, url: line.trim(), stop: async () => (child.kill('SIGTERM'), exited) }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** autocannon, imported lazily (a devDependency), resolved as a promise. */
export async function cannon(options) {
  const { default: autocannon } = await import('autocannon');
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export function machine() {
  const cpuList = cpus();
  return {
    cpu: cpuList[0]?.model?.trim() ?? 'unknown',
    cores: cpuList.length,
    memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    free_memory_gb: Math.round((freemem() / 1024 ** 3) * 10) / 10,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
  };
}
