import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { renderApp } from './view.js';

export function register(group: Command): void {
  group
    .command('show')
    .description("show the app's settings, and the `webhook listen` forwarding its deliveries if one is")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const appId = await ctx.appId();
      const [app, listeners] = await Promise.all([control.app(appId), control.webhookListeners()]);
      const listener = listeners.data.find((l) => l.app_id === appId) ?? null;
      ctx.print({ ...app, listener }, renderApp);
    });
}
