import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { readAll } from '../../io.js';

/** `scanctl state import FILE`: one transaction. */
export function register(group: Command): void {
  group
    .command('import <file>')
    .description('replace the whole emulator state with a file from `state export` (one transaction); - for stdin')
    .action(async (file: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      let json: unknown;
      try {
        json = JSON.parse(file === '-' ? (await readAll(ctx.io.stdin)).toString('utf8') : readFileSync(ctx.path(file), 'utf8'));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new UserError(`${file}: ${code ? `cannot be read (${code})` : `not valid JSON (${(error as Error).message})`}`);
      }
      const { StateFile } = await import('../../../contract/state.js');
      const { formatPath } = await import('../../../contract/issue-path.js');
      const parsed = StateFile.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new UserError(`${file}: ${formatPath(issue.path) || 'the file'}: ${issue.message}`, { hint: 'import a file written by `scanctl state export`' });
      }
      const result = await ctx.extras().importState(parsed.data);
      ctx.print(result, (r) => {
        const rows = Object.values(r.tables).reduce((sum, n) => sum + n, 0);
        const lines = [`Imported ${rows} rows of ${Object.keys(r.tables).length} tables from ${file}; clock offset ${r.clock_offset_ms} ms.`];
        if (r.apps_without_signing_secret.length) {
          lines.push(
            `Warning: the file holds no signing secret for ${r.apps_without_signing_secret.join(', ')} (export with --include-secrets to carry them); set webhook_url again to issue a new one.`,
          );
        }
        return lines.join('\n');
      });
    });
}
