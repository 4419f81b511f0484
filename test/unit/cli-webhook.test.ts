import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { signPayload } from '../../src/verify.js';
import { runCommand } from '../helpers/cli-in-process.js';
import { DEMO } from '../helpers/emulator.js';

describe('scanctl webhook verify and chaos flags (in-process)', () => {
  it('WH-4: verify exits 0 when the signature matches the bytes, EXIT.checkFailed with the reason when not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scanctl-verify-'));
    try {
      const body = '{"id":"evt_1","type":"scan.completed"}';
      writeFileSync(join(dir, 'body.json'), body);
      const sig = signPayload(body, DEMO.webhookSecret);
      const ok = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', sig, 'body.json'], { cwd: dir });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('signature ok');
      const stdin = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', sig, '-'], { input: body });
      expect(stdin.code).toBe(0);
      const changed = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', sig, '-'], { input: `${body} ` });
      expect(changed.code).toBe(EXIT.checkFailed);
      expect(changed.stderr).toMatch(/^scanctl: signature check failed \(mismatch\)/);
      const malformed = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', 'xyz', 'body.json'], { cwd: dir });
      expect(malformed.code).toBe(EXIT.checkFailed);
      expect(malformed.stderr).toContain('malformed_signature');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('chaos refuses bad flags with exit 2', async () => {
    for (const args of [['--drop', '2'], ['--delay', 'soon'], ['--fail-first', '-1'], ['sideways']]) {
      const r = await runCommand(['webhook', 'chaos', ...args, '--app', 'app_demo', '--base-url', 'http://127.0.0.1:9']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^scanctl: /);
    }
  });
});
