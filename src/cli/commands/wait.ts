import { Option, type Command } from 'commander';
import { formatDuration } from '../../clock/duration.js';
import { contextOf } from '../context.js';
import { UserError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { duration } from '../parse-options.js';

/** `scanctl wait`: returns once a starting emulator is ready; exit 5 when the timeout passes first. */
export function register(program: Command): void {
  program
    .command('wait')
    .description('wait until the emulator at the base URL is up and ready (a CI step after starting serve); exit 5 on timeout')
    .addOption(new Option('--timeout <duration>', 'how long to wait, in real time').argParser(duration({ min: 1 })).default(30_000, '30s'))
    .action(async (flags: { timeout: number }, command: Command) => {
      const ctx = contextOf(command);
      const { waitUntilReady } = await import('../../client/wait-ready.js');
      const outcome = await waitUntilReady(ctx.control(), { timeoutMs: flags.timeout });
      if (outcome.ok) {
        ctx.printLine(outcome.health, `ready: scanctl ${outcome.health.version} at ${ctx.baseUrl}`);
        return;
      }
      throw new UserError(
        `timed out after ${formatDuration(flags.timeout)} waiting for the emulator at ${ctx.baseUrl} to be ready (last: ${outcome.last})`,
        {
          exitCode: EXIT.waitFailed,
          hint: 'is `scanctl serve` starting there? pass --base-url, or a longer --timeout',
        },
      );
    });
}
