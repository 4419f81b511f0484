import type { Command } from 'commander';
import { controlClient, globalOptions, resolveAppId } from '../../context.js';
import { printResult } from '../../output.js';
import { renderApp } from './view.js';

export function register(group: Command): void {
  group
    .command('show')
    .description("show the app's settings")
    .action(async (_flags: object, command: Command) => {
      const options = globalOptions(command);
      const control = controlClient(options);
      const app = await control.app(await resolveAppId(control, options));
      printResult(Boolean(options.json), app, renderApp);
    });
}
