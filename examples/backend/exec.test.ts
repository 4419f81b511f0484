import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** The scanctl launcher of the installed package (node_modules/scanctl): what `npx scanctl` runs. */
const require = createRequire(import.meta.url);
const BIN = join(
  dirname(require.resolve('scanctl/package.json')),
  (require('scanctl/package.json') as { bin: { scanctl: string } }).bin.scanctl,
);
const CHECK = fileURLToPath(new URL('./ci-check.js', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The CI recipe: `scanctl exec --forward URL -- COMMAND`, the command starting the backend itself. */
describe('the example backend under scanctl exec', () => {
  it('WH-1: the command gets the emulator from its environment, the backend records the scan, exec exits 0', async () => {
    const port = await freePort();
    const { stdout } = await run(
      process.execPath,
      [
        BIN,
        'exec',
        '--seed',
        '1',
        '--clock-start',
        '2026-04-01T08:00:00Z',
        '--frozen-clock',
        '--forward',
        `http://127.0.0.1:${port}/webhooks`,
        '--',
        process.execPath,
        CHECK,
      ],
      { env: { ...process.env, BACKEND_PORT: String(port), SCANCTL_BASE_URL: '', SCANCTL_SECRET_KEY: '' }, timeout: 60_000 },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.minted).toBe(201);
    expect(out.recorded).toEqual({ member: 'member_ci', occurredAt: '2026-04-01T08:00:00.000Z', month: '2026-04' });
  }, 90_000);

  it('a failing command fails the step: exec exits with its code', async () => {
    const failed = await run(process.execPath, [BIN, 'exec', '--', process.execPath, '-e', 'process.exit(3)']).catch(
      (error: { code: number }) => error,
    );
    expect((failed as { code: number }).code).toBe(3);
  });
});
