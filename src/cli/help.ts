import type { Command } from 'commander';
import { UserError } from './errors.js';
import type { CliIo } from './io.js';

/**
 * Where commander writes help (the io's streams) and how wide. Its own error output is off:
 * the one error handler (main.ts) prints every error, commander's included, as one line.
 */
export function configureErrors(program: Command, io: CliIo): void {
  program.configureOutput({
    writeOut: (text) => void io.stdout.write(text),
    writeErr: (text) => void io.stderr.write(text),
    getOutHelpWidth: () => io.stdout.columns ?? 80,
    getErrHelpWidth: () => io.stderr.columns ?? 80,
    outputError: () => undefined,
  });
}

/** `scanctl help scan simulate` prints simulate's help, not the group's (commander's own stops at the first word). */
export function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help [command...]')
    .description('display help for a command, e.g. scanctl help scan simulate')
    .action((path: string[]) => {
      let target = program;
      for (const name of path) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next)
          throw new UserError(`no command "${[...path.slice(0, path.indexOf(name)), name].join(' ')}"`, {
            hint: 'run scanctl --help for the list',
          });
        target = next;
      }
      target.outputHelp();
    });
}
