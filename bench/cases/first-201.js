import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BIN, interleavedMedians, removeDir, ROOT, tempDir } from '../lib.js';

/**
 * From spawning a server to the first 201 of POST /v1/sessions, polled every 2 ms from the spawn:
 * `scanctl serve` on a fresh database against a bare hono route on @hono/node-server
 * (bench/baseline-hono.js), same Node, interleaved. Both get a port chosen beforehand.
 */
const SECRET = 'sk_test_demoSecretKey00000000000001';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** POSTs until a 201; resolves with the ms since `started`. */
async function first201(port, started, child) {
  const deadline = started + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode} before its first 201`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: '{"host_user_ref":"member_1"}',
      });
      await res.arrayBuffer();
      if (res.status === 201) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error('no 201 within 30 s');
    await new Promise((done) => setTimeout(done, 2));
  }
}

/** Spawn to the first 201 of `file` (node unless given) with `args(port)`. */
export async function timeTo201(args, env, cwd, file = process.execPath) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(file, args(port), { cwd, env: { ...process.env, NO_COLOR: '1', ...env(port) }, stdio: 'ignore' });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    return await first201(port, started, child);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function scanctlOnce() {
  const dir = tempDir();
  try {
    return await timeTo201(
      (port) => [BIN, 'serve', '--port', String(port), '--db', join(dir, 'emulator.db')],
      () => ({ SCANCTL_BASE_URL: '' }),
      dir,
    );
  } finally {
    removeDir(dir);
  }
}

export const honoOnce = () =>
  timeTo201(
    () => [join(ROOT, 'bench', 'baseline-hono.js')],
    (port) => ({ PORT: String(port) }),
    ROOT,
  );

export default {
  id: 'first-201',
  title: '`scanctl serve` from spawn to the first 201 of POST /v1/sessions, fresh database',
  baseline: 'a bare hono route on @hono/node-server, spawned the same way',
  target: { ratio: 'max', value: 1.2 },
  async run({ quick }) {
    const runs = quick ? 5 : 15;
    const [subject, baseline] = await interleavedMedians([scanctlOnce, honoOnce], runs, 1);
    return { note: `median of ${runs} runs each, interleaved, polled every 2 ms`, value: subject, baselineValue: baseline, unit: 'ms' };
  },
};
