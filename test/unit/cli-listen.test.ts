import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { IN_PROCESS_URL, runCommand } from '../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../helpers/emulator.js';
import { FakeStdin, FakeStdout } from '../helpers/ink-terminal.js';

/** `webhook listen` takes its streams, fetch and interrupts from the io: run here without spawning. */
describe('scanctl webhook listen (in-process)', () => {
  it('off a terminal: says where deliveries go and the secret, holds the listener until interrupted, then exits 0', async () => {
    const emulator = testEmulator();
    let attached: unknown[] = [];
    const result = await runCommand(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/hooks'], {
      emulator,
      onInterruptListener: (interrupt) => {
        void emulator.call('GET', '/_scanctl/webhooks/listeners').then((r) => {
          attached = r.body.data;
          interrupt();
        });
      },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual(['Ready: deliveries of app_demo go to http://127.0.0.1:9/hooks', `Signing secret: ${DEMO.webhookSecret}`, '']);
    expect(attached).toMatchObject([{ forward_url: 'http://127.0.0.1:9/hooks' }]);
  });

  it('on a terminal: draws the live view on the io streams; an interrupt (SIGTERM) closes it and exits 0', async () => {
    const emulator = testEmulator();
    const stdout = new FakeStdout(100, 30);
    const stdin = new FakeStdin();
    let interrupt: (() => void) | null = null;
    const drawn = new Promise<void>((resolve) => stdout.on('frame', () => stdout.frames.some((f) => f.includes(DEMO.webhookSecret)) && resolve()));
    const io: CliIo = {
      stdout: Object.assign(stdout, { isTTY: true }),
      stderr: new FakeStdout(100, 30),
      stdin: stdin as unknown as CliIo['stdin'],
      env: { NO_COLOR: '1', SCANCTL_BASE_URL: IN_PROCESS_URL },
      cwd: process.cwd(),
      fetch: (input, init) => Promise.resolve(emulator.app.request(input instanceof Request ? input : String(input), init)),
      onInterrupt(listener) {
        interrupt = listener;
        return () => void (interrupt = null);
      },
    };
    const exited = runCli(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/hooks'], io);
    await drawn;
    expect(interrupt).not.toBeNull();
    interrupt!();
    expect(await exited).toBe(0);
    expect(interrupt).toBeNull();
    expect(stdout.frames.join('\n')).toContain('http://127.0.0.1:9/hooks');
  });
});
