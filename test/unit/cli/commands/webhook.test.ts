import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../src/cli/exit-codes.js';
import { signPayload } from '../../../../src/verify.js';
import { runCommand } from '../../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../../helpers/emulator.js';

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
      const changed = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', sig, '-'], {
        input: `${body} `,
      });
      expect(changed.code).toBe(EXIT.checkFailed);
      expect(changed.stderr).toMatch(/^scanctl: signature check failed \(mismatch\)/);
      const malformed = await runCommand(['webhook', 'verify', '--secret', DEMO.webhookSecret, '--signature', 'xyz', 'body.json'], {
        cwd: dir,
      });
      expect(malformed.code).toBe(EXIT.checkFailed);
      expect(malformed.stderr).toContain('malformed_signature');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("WH-4: verify without --secret uses the emulator app's secret, as webhook check does", async () => {
    const body = '{"id":"evt_1","type":"scan.completed"}';
    const sig = signPayload(body, DEMO.webhookSecret);
    const emulator = testEmulator();
    const ok = await runCommand(['webhook', 'verify', '--signature', sig, '-'], { input: body, emulator });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const other = await runCommand(['webhook', 'verify', '--app', 'app_trial', '--signature', sig, '-'], { input: body, emulator });
    expect(other.code).toBe(EXIT.usage);
    expect(other.stderr).toMatch(/^scanctl: app_trial has no webhook signing secret yet/);
  });

  it('chaos refuses bad flags with exit 2', async () => {
    for (const args of [['--drop', '2'], ['--delay', 'soon'], ['--fail-first', '-1'], ['sideways']]) {
      const r = await runCommand(['webhook', 'chaos', ...args, '--app', 'app_demo', '--base-url', 'http://127.0.0.1:9']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^scanctl: /);
    }
  });
});

describe('scanctl webhook deliveries, delivery, resend (in-process, nothing dispatched)', () => {
  it('WH-8: a resend is a new delivery of the same event id and the same signed bytes', async () => {
    const emulator = testEmulator();
    const cli = (...args: string[]) => runCommand(args, { emulator });
    await cli('app', 'update', '--webhook-url', 'http://127.0.0.1:9/hooks');
    await cli('scan', 'simulate', '--user', 'm_hook');
    const list = JSON.parse((await cli('webhook', 'deliveries', '--json')).stdout);
    expect(list.data).toHaveLength(1);
    const [first] = list.data;
    expect(first).toMatchObject({ event_type: 'scan.completed', status: 'pending' });
    const table = await cli('webhook', 'deliveries');
    expect(table.stdout.split('\n')[0]).toMatch(/^DELIVERY\s+EVENT\s+TYPE\s+SCAN\s+STATUS/);
    const detail = await cli('webhook', 'delivery', first.id);
    expect(detail.stdout).toContain(`POST http://127.0.0.1:9/hooks`);
    expect(detail.stdout).toMatch(/service-event-id: evt_\w+/i);
    const resend = await cli('webhook', 'resend', first.event_id);
    expect(resend.code).toBe(0);
    expect(resend.stdout).toMatch(new RegExp(`^resending ${first.event_id} \\(scan.completed\\) as \\S+, due now\\n$`));
    const after = JSON.parse((await cli('webhook', 'deliveries', '--event', first.event_id, '--json')).stdout);
    expect(after.data).toHaveLength(2);
    const bodies = await Promise.all(
      after.data.map(async (d: { id: string }) => JSON.parse((await cli('webhook', 'delivery', d.id, '--json')).stdout).request.body),
    );
    expect(bodies[0]).toBe(bodies[1]);
    const missing = await cli('webhook', 'resend', 'evt_nope');
    expect(missing.code).toBe(EXIT.api);
    expect(missing.stderr).toMatch(/^scanctl: .*resource_missing/);
  });
});
