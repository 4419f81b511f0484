import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../../../src/cli/io.js';
import { runCli } from '../../../../../src/cli/main.js';
import { IN_PROCESS_URL, runCommand } from '../../../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../../../helpers/emulator.js';
import { FakeStdin, FakeStdout } from '../../../../helpers/ink-terminal.js';

// ink draws only the final frame when it believes it runs in CI (is-in-ci reads CI once, when ink
// loads); this file watches the frames as a developer's terminal shows them, so it says it is not CI.
vi.hoisted(() => {
  process.env.CI = 'false';
});

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
    expect(result.stdout.split('\n')).toEqual([
      'Ready: deliveries of app_demo go to http://127.0.0.1:9/hooks',
      `Signing secret: ${DEMO.webhookSecret}`,
      '',
    ]);
    expect(attached).toMatchObject([{ forward_url: 'http://127.0.0.1:9/hooks' }]);
  });

  it('the listener that replaces another says which one it replaced (plain and --json)', async () => {
    const emulator = testEmulator();
    const { openDeliveryStream } = await import('../../../../../src/client/webhook-stream.js');
    const fetchIn = ((url: string, init?: RequestInit) => emulator.app.request(url, init)) as typeof fetch;
    const first = await openDeliveryStream(
      IN_PROCESS_URL,
      { appId: DEMO.appId, forward: 'http://127.0.0.1:9/first' },
      () => undefined,
      fetchIn,
    );
    const result = await runCommand(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/second'], {
      emulator,
      onInterruptListener: (interrupt) => void Promise.resolve().then(interrupt),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[2]).toBe(
      `Note: replaced the \`webhook listen\` ${first.ready.listener!.id} that forwarded app_demo's deliveries to http://127.0.0.1:9/first since 2026-11-22T10:00:00.000Z`,
    );
    expect((await first.done).reason).toBe('replaced');
    const second = await openDeliveryStream(
      IN_PROCESS_URL,
      { appId: DEMO.appId, forward: 'http://127.0.0.1:9/third' },
      () => undefined,
      fetchIn,
    );
    const json = await runCommand(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/fourth', '--json'], {
      emulator,
      onInterruptListener: (interrupt) => void Promise.resolve().then(interrupt),
    });
    expect(JSON.parse(json.stdout.split('\n')[0]!).replaced).toMatchObject([
      { id: second.ready.listener!.id, forward_url: 'http://127.0.0.1:9/third' },
    ]);
  });

  it("CHOICE-35: when serve stops, the stream's last event ends the listener with one line and exit 4", async () => {
    const emulator = testEmulator();
    const result = await runCommand(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/hooks'], {
      emulator,
      // Once it listens: serve stops, ending every stream with its close event.
      onInterruptListener: () => emulator.streams.endAll('server_stopping'),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('scanctl: the emulator stopped: the delivery stream closed\n');
  });

  it('CHOICE-37: a listener the emulator dropped for falling behind says so, exit 4', async () => {
    const emulator = testEmulator();
    const result = await runCommand(['webhook', 'listen', '--forward', 'http://127.0.0.1:9/hooks'], {
      emulator,
      onInterruptListener: () => emulator.streams.endAll('subscriber_too_slow'),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^scanctl: the emulator dropped this listener: it fell too far behind its delivery stream \(CHOICE-37\)\n {2}hint: run it again/,
    );
  });

  it('on a terminal: draws the live view on the io streams; an interrupt (SIGTERM) closes it and exits 0', async () => {
    const emulator = testEmulator();
    const stdout = new FakeStdout(100, 30);
    const stdin = new FakeStdin();
    let interrupt: (() => void) | null = null;
    const drawn = new Promise<void>((resolve) =>
      stdout.on('frame', () => stdout.frames.some((f) => f.includes(DEMO.webhookSecret)) && resolve()),
    );
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
