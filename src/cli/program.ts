import { Command } from 'commander';
import { attachIo } from './context.js';
import type { CliIo } from './io.js';
import { register as registerServe } from './commands/serve.js';
import { register as registerExec } from './commands/exec.js';
import { register as registerSessionMint } from './commands/session/mint.js';
import { register as registerResultsDelete } from './commands/results/delete.js';
import { register as registerAppShow } from './commands/app/show.js';
import { register as registerAppUpdate } from './commands/app/update.js';
import { register as registerKeyCommands } from './commands/key/index.js';
import { register as registerAccountCommands } from './commands/account/index.js';
import { register as registerClockCommands } from './commands/clock/index.js';
import { register as registerScanSimulate } from './commands/scan/simulate.js';
import { register as registerUsage } from './commands/usage.js';
import { register as registerScansList } from './commands/scans/list.js';
import { register as registerDeviceCommands } from './commands/device/index.js';
import { register as registerWebhookCommands } from './commands/webhook/index.js';
import { register as registerWebhookCheck } from './commands/webhook/check.js';
import { register as registerWebhookChaos } from './commands/webhook/chaos.js';
import { register as registerStateCommands } from './commands/state/index.js';
import { register as registerLogsTail } from './commands/logs/tail.js';
import { register as registerFaultCommands } from './commands/faults/index.js';
import { register as registerOpenapi } from './commands/openapi.js';

/**
 * Registers every command. Command files are thin and import their heavy parts (the emulator,
 * ink) lazily inside their actions, so `scanctl --help` stays fast.
 */
export function buildProgram(version: string, io: CliIo): Command {
  const program = new Command('scanctl')
    .description('Build and test against the body-scanning service without the service: a local emulator, its clock, and the client side.')
    .version(version, '-V, --version')
    .option('--base-url <url>', 'service or emulator base URL (env SCANCTL_BASE_URL; default: the local emulator)')
    .option('--app <id>', "app id for emulator commands (default: the emulator's default app)")
    .option('--json', 'machine output: the API JSON, one object per line for streams')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      getOutHelpWidth: () => io.stdout.columns ?? 80,
      getErrHelpWidth: () => io.stderr.columns ?? 80,
    });
  attachIo(program, io);
  program.configureHelp({ sortSubcommands: false });

  registerServe(program);
  registerExec(program);

  registerSessionMint(program.command('session').description('session tokens (POST /v1/sessions)'));
  registerResultsDelete(program.command('results').description("members' stored results (DELETE /v1/results)"));

  const app = program.command('app').description("the app's settings (the portal's PATCH /v1/apps/{app_id})");
  registerAppShow(app);
  registerAppUpdate(app);

  registerKeyCommands(program.command('key').description('secret and publishable keys (the portal side)'));
  registerAccountCommands(program.command('account').description('suspend or reinstate an account (the portal side)'));
  registerClockCommands(program.command('clock').description("the emulator's virtual clock"));

  registerScanSimulate(program.command('scan').description("play the SDK's device side: enrollment, model key, scan events, result upload"));
  registerScansList(program.command('scans').description('recorded scans'));
  registerUsage(program);
  registerDeviceCommands(program.command('device').description('device installations (block, unblock)'));

  const webhook = program.command('webhook').description('signed deliveries: listen, inspect, resend, verify, check, chaos');
  registerWebhookCommands(webhook);
  registerWebhookCheck(webhook);
  registerWebhookChaos(webhook);

  registerStateCommands(program.command('state').description("the emulator's whole state: export, import, reset"));
  registerLogsTail(program.command('logs').description("the emulator's request log"));
  registerFaultCommands(program.command('faults').description('make chosen routes fail on purpose'));
  registerOpenapi(program);

  // Every group and command inherits exitOverride, so usage errors exit 2 through one handler.
  for (const command of allCommands(program)) command.exitOverride();
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}
