import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `scanctl/verify` as a production server imports it: the built module and package.json alone,
 * in a folder with no node_modules anywhere above it, imported through the package's exports map.
 */
describe('scanctl/verify loads with Node built-ins only', () => {
  const work = mkdtempSync(join(tmpdir(), 'scanctl-verify-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('WH-4: imports from a copy of the package without node_modules, and signs and verifies body first, secret last', async () => {
    expect(existsSync(join(ROOT, 'dist', 'verify.js')), 'run npm run build first').toBe(true);
    expect(existsSync(join(tmpdir(), 'node_modules'))).toBe(false);
    const pkg = join(work, 'scanctl');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    copyFileSync(join(ROOT, 'dist', 'verify.js'), join(pkg, 'dist', 'verify.js'));
    // The script lives inside the package, so `scanctl/verify` resolves through its own exports map.
    writeFileSync(
      join(pkg, 'check.mjs'),
      `import { signPayload, verifySignature, SignatureVerificationError, WEBHOOK_HEADERS } from 'scanctl/verify';
const body = Buffer.from('{"id":"evt_1"}');
const signature = signPayload(body, 'whsec_abc');
const reasons = [];
for (const [b, s, k] of [[body, signature, 'whsec_other'], [body, undefined, 'whsec_abc'], [body, 'zz', 'whsec_abc'], [JSON.parse(body), signature, 'whsec_abc'], [body, signature, '']]) {
  try { verifySignature(b, s, k); } catch (e) { reasons.push(e instanceof SignatureVerificationError ? e.reason : 'other'); }
}
console.log(JSON.stringify({ ok: verifySignature(body, signature, 'whsec_abc'), signature, reasons, header: WEBHOOK_HEADERS.signature }));
`,
    );
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: pkg, env: { ...process.env, NODE_PATH: '' } });
    const out = JSON.parse(stdout) as { ok: boolean; signature: string; reasons: string[]; header: string };
    expect(out.ok).toBe(true);
    // The same hex HMAC-SHA256 as the emulator signs with (and as the README's Python, Go and Ruby compute).
    const { createHmac } = await import('node:crypto');
    expect(out.signature).toBe(createHmac('sha256', 'whsec_abc').update('{"id":"evt_1"}').digest('hex'));
    expect(out.reasons).toEqual(['mismatch', 'missing_signature', 'malformed_signature', 'not_raw_bytes', 'missing_secret']);
    expect(out.header).toBe('Service-Signature');
  });

  it('the built verify module imports nothing but node: built-ins', () => {
    const source = readFileSync(join(ROOT, 'dist', 'verify.js'), 'utf8');
    const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s!.startsWith('node:'))).toEqual([]);
    expect(source).not.toMatch(/import\(/);
  });
});
