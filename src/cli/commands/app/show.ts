import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { renderApp } from './view.js';

export function register(group: Command): void {
  group
    .command('show')
    .description("show the app's settings")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const app = await control.app(await ctx.appId());
      ctx.print(app, renderApp);
    });
}
