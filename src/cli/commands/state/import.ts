import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { readStateFile } from '../../emulator-flags.js';

/** `scanctl state import FILE`: one transaction. */
export function register(group: Command): void {
  group
    .command('import <file>')
    .description('replace the whole emulator state with a file from `state export` (one transaction); - for stdin')
    .action(async (file: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.requireKnownEmulator('state import');
      const result = await ctx.control().importState(await readStateFile(file, ctx));
      ctx.print(result, (r) => {
        const rows = Object.values(r.tables).reduce((sum, n) => sum + n, 0);
        const lines = [
          `Imported ${rows} rows of ${Object.keys(r.tables).length} tables from ${file}; clock offset ${r.clock_offset_ms} ms.`,
        ];
        if (r.apps_without_signing_secret.length) {
          lines.push(
            `Warning: the file holds no signing secret for ${r.apps_without_signing_secret.join(', ')} (export with --include-secrets to carry them); set webhook_url again to issue a new one.`,
          );
        }
        return lines.join('\n');
      });
    });
}
