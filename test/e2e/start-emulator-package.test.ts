import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `import { startEmulator } from 'scanctl'` as a user's test file does it: the built package, through its exports map. */
describe("startEmulator from the built package ('scanctl')", () => {
  it('two emulators in one process, used and closed: the ports are free and the process exits on its own', async () => {
    expect(existsSync(join(ROOT, 'dist', 'bundle', 'index.mjs')), 'run npm run build first').toBe(true);
    const script = `
      import { startEmulator } from 'scanctl';
      const a = await startEmulator({ clock: { start: '2026-01-01T00:00:00Z', frozen: true } });
      const b = await startEmulator();
      const mint = (emu) => fetch(emu.baseUrl + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + emu.secretKey, 'content-type': 'application/json' }, body: JSON.stringify({ host_user_ref: 'm' }) }).then((r) => r.status);
      const statuses = [await mint(a), await mint(b)];
      const scan = await a.simulateScan({ user: 'member_1' });
      const ports = [a.port, b.port];
      await a.close();
      await b[Symbol.asyncDispose]();
      console.log(JSON.stringify({ statuses, ports, scan: scan.state }));
      // No process.exit: the test fails by timeout if anything of the emulators still holds the event loop.
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 20_000 });
    const out = JSON.parse(stdout) as { statuses: number[]; ports: number[]; scan: string };
    expect(out.statuses).toEqual([201, 201]);
    expect(out.scan).toBe('recorded');
    for (const port of out.ports) {
      await new Promise<void>((resolve, reject) => {
        const probe = createServer().once('error', reject);
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
      });
    }
  });

  it("runs the library's bundle, which shares scanctl/verify's module: one SignatureVerificationError for both entries", async () => {
    const script = `
      const main = await import('scanctl');
      const verify = await import('scanctl/verify');
      let caught;
      try { main.verifySignature('{}', 't=1,v1=00', 'whsec_x'); } catch (error) { caught = error; }
      console.log(JSON.stringify({
        resolved: import.meta.resolve('scanctl'),
        sameClass: main.SignatureVerificationError === verify.SignatureVerificationError,
        caughtByVerify: caught instanceof verify.SignatureVerificationError,
      }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 20_000 });
    const out = JSON.parse(stdout) as { resolved: string; sameClass: boolean; caughtByVerify: boolean };
    expect(out.resolved).toMatch(/\/dist\/bundle\/index\.mjs$/);
    expect(out.sameClass).toBe(true);
    expect(out.caughtByVerify).toBe(true);
  });

  it('ships its types: startEmulator and the handle from dist/types/index.d.ts, verifySignature from dist/types/verify.d.ts', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['.'].types).toBe('./dist/types/index.d.ts');
    expect(pkg.exports['./verify'].types).toBe('./dist/types/verify.d.ts');
    expect(readFileSync(join(ROOT, 'dist', 'types', 'index.d.ts'), 'utf8')).toMatch(/startEmulator[\s\S]*EmulatorHandle/);
    expect(readFileSync(join(ROOT, 'dist', 'types', 'verify.d.ts'), 'utf8')).toMatch(
      /export declare function verifySignature\(rawBody: string \| Uint8Array, signature: string \| null \| undefined, secret: string \| undefined\): true/,
    );
  });
});
