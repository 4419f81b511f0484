import type { Command } from 'commander';
import { controlClient, globalOptions, resolveAppId } from '../../context.js';
import { printResult } from '../../output.js';
import { renderApp } from './view.js';

export function register(group: Command): void {
  group
    .command('show')
    .description("show the app's settings, and the `webhook listen` forwarding its deliveries if one is")
    .action(async (_flags: object, command: Command) => {
      const options = globalOptions(command);
      const control = controlClient(options);
      const appId = await resolveAppId(control, options);
      const [app, listeners] = await Promise.all([control.app(appId), control.webhookListeners()]);
      const listener = listeners.data.find((l) => l.app_id === appId) ?? null;
      printResult(Boolean(options.json), { ...app, listener }, renderApp);
    });
}
