import { Command, CommanderError, Option } from 'commander';
import { ACCOUNT_STATE_VERBS } from './commands/account/change-state.js';
import * as appShow from './commands/app/show.js';
import * as appUpdate from './commands/app/update.js';
import * as clockAdvance from './commands/clock/advance.js';
import * as clockSet from './commands/clock/set.js';
import * as clockShow from './commands/clock/show.js';
import * as conform from './commands/conform/run.js';
import * as faultsAdd from './commands/faults/add.js';
import * as faultsClear from './commands/faults/clear.js';
import * as faultsList from './commands/faults/list.js';
import { INSTALLATION_STATE_VERBS } from './commands/installation/change-state.js';
import * as installationList from './commands/installation/list.js';
import { KEY_STATE_VERBS } from './commands/key/change-state.js';
import * as keyCreate from './commands/key/create.js';
import * as keyList from './commands/key/list.js';
import * as keyRotate from './commands/key/rotate.js';
import * as logsTail from './commands/logs/tail.js';
import * as openapi from './commands/openapi.js';
import * as record from './commands/record.js';
import * as resultsDelete from './commands/results/delete.js';
import * as scanList from './commands/scan/list.js';
import * as scanSimulate from './commands/scan/simulate.js';
import * as serve from './commands/serve.js';
import * as exec from './commands/exec.js';
import * as health from './commands/health.js';
import * as wait from './commands/wait.js';
import * as sessionMint from './commands/session/mint.js';
import * as stateCheckpoint from './commands/state/checkpoint.js';
import * as stateCheckpoints from './commands/state/checkpoints.js';
import * as stateExport from './commands/state/export.js';
import * as stateImport from './commands/state/import.js';
import * as stateReset from './commands/state/reset.js';
import * as stateRestore from './commands/state/restore.js';
import * as usage from './commands/usage.js';
import * as webhookChaos from './commands/webhook/chaos.js';
import * as webhookCheck from './commands/webhook/check.js';
import * as webhookDeliveries from './commands/webhook/deliveries.js';
import * as webhookDelivery from './commands/webhook/delivery.js';
import { registerListen } from './commands/webhook/listen.js';
import * as webhookResend from './commands/webhook/resend.js';
import * as webhookVerify from './commands/webhook/verify.js';
import * as webhookWait from './commands/webhook/wait.js';
import { attachIo } from './context.js';
import { addHelpCommand, configureErrors } from './help.js';
import type { CliIo } from './io.js';
import { GLOBAL_OPTIONS, type GlobalOptionName } from './global-options.js';
import { envReadByCli, httpUrl } from './parse-options.js';

/** A command: one verb, registered on its parent (the program or a group); verbs that differ only in an action share a file. */
interface CommandModule {
  register(parent: Command): void;
}

/** A command of its own at the top (serve, exec, usage, openapi), by name. */
interface TopCommand extends CommandModule {
  name: string;
}

interface CommandGroup {
  group: string;
  description: string;
  verbs: CommandModule[];
}

/** Every command and group, in the order --help lists them. */
const COMMANDS: Array<TopCommand | CommandGroup> = [
  { name: 'serve', register: serve.register },
  { name: 'exec', register: exec.register },
  { name: 'health', register: health.register },
  { name: 'wait', register: wait.register },
  { group: 'session', description: 'session tokens (POST /v1/sessions)', verbs: [sessionMint] },
  { group: 'results', description: "members' stored results (DELETE /v1/results)", verbs: [resultsDelete] },
  { group: 'app', description: "the app's settings (the portal's PATCH /v1/apps/{app_id})", verbs: [appShow, appUpdate] },
  {
    group: 'key',
    description: 'secret and publishable keys (the portal side)',
    verbs: [keyList, keyCreate, keyRotate, ...KEY_STATE_VERBS],
  },
  { group: 'account', description: 'suspend or reinstate an account (the portal side)', verbs: ACCOUNT_STATE_VERBS },
  { group: 'clock', description: "the emulator's virtual clock", verbs: [clockShow, clockAdvance, clockSet] },
  {
    group: 'scan',
    description: "play the SDK's device side (simulate) and list recorded scans",
    verbs: [scanSimulate, scanList],
  },
  { name: 'usage', register: usage.register },
  {
    group: 'installation',
    description: 'device installations: list, block, unblock',
    verbs: [installationList, ...INSTALLATION_STATE_VERBS],
  },
  {
    group: 'webhook',
    description: 'signed deliveries: listen, inspect, wait, resend, verify, check, chaos',
    verbs: [
      { register: registerListen },
      webhookDeliveries,
      webhookDelivery,
      webhookWait,
      webhookResend,
      webhookVerify,
      webhookCheck,
      webhookChaos,
    ],
  },
  {
    group: 'state',
    description: "the emulator's whole state: export, import, reset, checkpoint, restore",
    verbs: [stateExport, stateImport, stateReset, stateCheckpoint, stateRestore, stateCheckpoints],
  },
  { group: 'logs', description: "the emulator's request log", verbs: [logsTail] },
  { group: 'faults', description: 'make chosen routes fail on purpose', verbs: [faultsAdd, faultsList, faultsClear] },
  { name: 'conform', register: conform.register },
  { name: 'record', register: record.register },
  { name: 'openapi', register: openapi.register },
];

/** The parser of a global option's value, where it needs checking. */
const GLOBAL_PARSERS: Partial<Record<GlobalOptionName, (value: string) => unknown>> = { '--base-url': httpUrl };

/**
 * Registers every command. Command files are thin and import their heavy parts (the emulator,
 * ink) lazily inside their actions, so `scanctl --help` stays fast.
 */
export function buildProgram(version: string, io: CliIo): Command {
  const program = new Command('scanctl')
    .description('Build and test against the body-scanning service without the service: a local emulator, its clock, and the client side.')
    .version(version, '-V, --version')
    // Inherited by every command: commander checks required options before unknown ones, so
    // `session mint --bogus` would say --user is missing; the unknown option is the error to fix first.
    .exitOverride(function (this: Command, error: CommanderError) {
      if (error.code === 'commander.missingMandatoryOptionValue') {
        const unknown = this.args.find((arg) => arg.startsWith('-') && arg !== '-' && arg !== '--');
        if (unknown) throw new CommanderError(error.exitCode, 'commander.unknownOption', `error: unknown option '${unknown}'`);
      }
      throw error;
    });
  for (const global of GLOBAL_OPTIONS) {
    const option = new Option(global.flags, global.description).default(undefined, global.defaultHelp);
    const parser = GLOBAL_PARSERS[global.name];
    if (parser) option.argParser(parser);
    program.addOption('env' in global ? envReadByCli(option, global.env) : option);
  }
  // Inherited by every command created below: where output goes, one-line errors, global options in each help.
  configureErrors(program, io);
  program.configureHelp({ sortSubcommands: false, showGlobalOptions: true });
  attachIo(program, io);

  for (const entry of COMMANDS) {
    if ('name' in entry) {
      entry.register(program);
      continue;
    }
    const group = program.command(entry.group).description(entry.description);
    for (const verb of entry.verbs) verb.register(group);
  }
  addHelpCommand(program);
  return program;
}
