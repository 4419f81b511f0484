import { Command, CommanderError, Option } from 'commander';
import { addHelpCommand, configureErrors } from './help.js';
import { ProgramCommand, type CliIo } from './io.js';
import { commandName, GLOBAL_OPTIONS, type GlobalOptionName } from './global-options.js';
import { httpUrl } from './http-url.js';
import { EnvReadByCli } from './option-env.js';

/** A command: one verb, registered on its parent (the program or a group); verbs that differ only in an action share a file. */
interface CommandModule {
  register(parent: Command): void;
}

/** A command of its own at the top (serve, exec, usage, openapi), by name, and the file that registers it. */
interface TopCommand {
  name: string;
  load(): Promise<CommandModule>;
}

interface CommandGroup {
  group: string;
  description: string;
  verbs(): Promise<readonly CommandModule[]>;
}

/**
 * Every command and group, in the order --help lists them. Each file is imported when its command
 * is run (or when all are listed), so a command line loads its own command and what it imports,
 * not the other forty (docs/performance.md#start-up).
 */
const COMMANDS: ReadonlyArray<TopCommand | CommandGroup> = [
  { name: 'serve', load: () => import('./commands/serve.js') },
  { name: 'exec', load: () => import('./commands/exec.js') },
  { name: 'health', load: () => import('./commands/health.js') },
  { name: 'wait', load: () => import('./commands/wait.js') },
  { group: 'session', description: 'session tokens (POST /v1/sessions)', verbs: () => all(import('./commands/session/mint.js')) },
  {
    group: 'results',
    description: "members' stored results (DELETE /v1/results)",
    verbs: () => all(import('./commands/results/delete.js')),
  },
  {
    group: 'app',
    description: "the app's settings (the portal's PATCH /v1/apps/{app_id})",
    verbs: () => all(import('./commands/app/show.js'), import('./commands/app/update.js')),
  },
  {
    group: 'key',
    description: 'secret and publishable keys (the portal side)',
    verbs: async () => [
      ...(await all(import('./commands/key/list.js'), import('./commands/key/create.js'), import('./commands/key/rotate.js'))),
      ...(await import('./commands/key/change-state.js')).KEY_STATE_VERBS,
    ],
  },
  {
    group: 'account',
    description: 'suspend or reinstate an account (the portal side)',
    verbs: async () => (await import('./commands/account/change-state.js')).ACCOUNT_STATE_VERBS,
  },
  {
    group: 'clock',
    description: "the emulator's virtual clock",
    verbs: () => all(import('./commands/clock/show.js'), import('./commands/clock/advance.js'), import('./commands/clock/set.js')),
  },
  {
    group: 'scan',
    description: "play the SDK's device side (simulate) and list recorded scans",
    verbs: () => all(import('./commands/scan/simulate.js'), import('./commands/scan/list.js')),
  },
  { name: 'usage', load: () => import('./commands/usage.js') },
  {
    group: 'installation',
    description: 'device installations: list, block, unblock',
    verbs: async () => [
      ...(await all(import('./commands/installation/list.js'))),
      ...(await import('./commands/installation/change-state.js')).INSTALLATION_STATE_VERBS,
    ],
  },
  {
    group: 'webhook',
    description: 'signed deliveries: listen, inspect, wait, resend, verify, check, chaos',
    verbs: async () => [
      { register: (await import('./commands/webhook/listen.js')).registerListen },
      ...(await all(
        import('./commands/webhook/deliveries.js'),
        import('./commands/webhook/delivery.js'),
        import('./commands/webhook/wait.js'),
        import('./commands/webhook/resend.js'),
        import('./commands/webhook/verify.js'),
        import('./commands/webhook/check.js'),
        import('./commands/webhook/chaos.js'),
      )),
    ],
  },
  {
    group: 'state',
    description: "the emulator's whole state: export, import, reset, checkpoint, restore",
    verbs: () =>
      all(
        import('./commands/state/export.js'),
        import('./commands/state/import.js'),
        import('./commands/state/reset.js'),
        import('./commands/state/checkpoint.js'),
        import('./commands/state/restore.js'),
        import('./commands/state/checkpoints.js'),
      ),
  },
  { group: 'logs', description: "the emulator's request log", verbs: () => all(import('./commands/logs/tail.js')) },
  {
    group: 'faults',
    description: 'make chosen routes fail on purpose',
    verbs: () => all(import('./commands/faults/add.js'), import('./commands/faults/list.js'), import('./commands/faults/clear.js')),
  },
  { name: 'conform', load: () => import('./commands/conform/run.js') },
  { name: 'record', load: () => import('./commands/record.js') },
  { name: 'openapi', load: () => import('./commands/openapi.js') },
];

const all = (...modules: Array<Promise<CommandModule>>): Promise<CommandModule[]> => Promise.all(modules);

const nameOf = (entry: TopCommand | CommandGroup) => ('name' in entry ? entry.name : entry.group);

/** The entry a command line runs; null (every command is then loaded) when it names none (help, a typo). */
function entryRun(args: readonly string[]): TopCommand | CommandGroup | null {
  const name = commandName(args);
  return COMMANDS.find((entry) => nameOf(entry) === name) ?? null;
}

/** The parser of a global option's value, where it needs checking. */
const GLOBAL_PARSERS: Partial<Record<GlobalOptionName, (value: string) => unknown>> = { '--base-url': httpUrl };

/**
 * The program for a command line: its own command (or every command, when `args` names none or is
 * left out, for help and the reference). Command files are thin and import their heavy parts (the
 * emulator, ink) lazily inside their actions.
 */
export async function buildProgram(version: string, io: CliIo, args?: readonly string[]): Promise<Command> {
  const program = new ProgramCommand('scanctl', io)
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
    const made =
      'env' in global ? new EnvReadByCli(global.flags, global.description, global.env) : new Option(global.flags, global.description);
    const option = made.default(undefined, global.defaultHelp);
    const parser = GLOBAL_PARSERS[global.name];
    if (parser) option.argParser(parser);
    program.addOption(option);
  }
  // Inherited by every command created below: where output goes, one-line errors, global options in each help.
  configureErrors(program, io);
  program.configureHelp({ sortSubcommands: false, showGlobalOptions: true });

  const run = args ? entryRun(args) : null;
  const entries = run ? [run] : COMMANDS;
  // Imported side by side, registered in the order of the table.
  const loaded = await Promise.all(entries.map((entry) => ('name' in entry ? entry.load().then((m) => [m]) : entry.verbs())));
  entries.forEach((entry, i) => {
    if ('name' in entry) return loaded[i]![0]!.register(program);
    const group = program.command(entry.group).description(entry.description);
    for (const verb of loaded[i]!) verb.register(group);
  });
  addHelpCommand(program);
  return program;
}
