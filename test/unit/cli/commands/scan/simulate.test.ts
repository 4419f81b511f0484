import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../../../src/cli/io.js';
import { EXIT } from '../../../../../src/cli/exit-codes.js';
import { refusedFetch, runCommand } from '../../../../helpers/cli-in-process.js';
import { testEmulator } from '../../../../helpers/emulator.js';

/** The emulator's app.request for the first `calls` requests, then a refused connection, as when serve is killed. */
function goneAfter(calls: number): CliIo['fetch'] {
  const emulator = testEmulator();
  let made = 0;
  return (input, init) =>
    made++ < calls ? Promise.resolve(emulator.app.request(input instanceof Request ? input : String(input), init)) : refusedFetch();
}

describe('scan simulate when the emulator goes away between its calls (issue 28)', () => {
  it('exits 4 (could not reach), never 2 ("no secret key") or a bug, wherever it stops answering', async () => {
    const exits = new Map<number, number>();
    for (let calls = 0; calls <= 14; calls += 1) {
      const res = await runCommand(['scan', 'simulate', '--user', 'member_gone', '--env', 'live', '--json'], {
        fetch: goneAfter(calls),
        env: { SCANCTL_BASE_URL: 'http://127.0.0.1:7226' },
      });
      exits.set(calls, res.code);
      if (res.code !== EXIT.ok) {
        expect(res.code, `gone after ${calls} calls: ${res.stderr}`).toBe(EXIT.connection);
        expect(res.stderr + res.stdout).toMatch(/could not reach http:\/\/127\.0\.0\.1:7226/);
      }
    }
    // The fixture-key lookup (the second call) is among the places it stopped.
    expect(exits.get(1)).toBe(EXIT.connection);
  });
});
