import type { Command } from 'commander';
import type { Health } from '../../contract/control.js';
import { contextOf } from '../context.js';
import { UserError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { errorMessage } from '../../util/caught.js';

/**
 * `scanctl health`: one look at GET /_scanctl/health. Exit 0 when ready, 1 otherwise (not ready,
 * unreachable, not an emulator), the two codes a container's HEALTHCHECK understands.
 */
export function register(program: Command): void {
  program
    .command('health')
    .description('exit 0 when the emulator is up and ready, 1 when not (for health checks: no curl needed)')
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const { notReady } = await import('../../client/wait-ready.js');
      let health: Health;
      let baseUrl: string | undefined;
      try {
        // Inside: a stale .scanctl/serve.json (the emulator has exited) is unhealthy too, not exit 4.
        baseUrl = ctx.baseUrl;
        health = await ctx.control().health();
      } catch (error) {
        throw new UserError(`${baseUrl ?? 'the emulator'} is not healthy: ${errorMessage(error)}`, {
          exitCode: EXIT.unhealthy,
          code: 'unhealthy',
        });
      }
      ctx.printLine(
        health,
        health.ready ? `ready: scanctl ${health.version} at ${ctx.baseUrl}` : `not ready: ${notReady(health).join(', ')}`,
      );
      if (!health.ready)
        throw new UserError(`${ctx.baseUrl} is up but not ready`, { exitCode: EXIT.unhealthy, code: 'not_ready', reportedInOutput: true });
    });
}
