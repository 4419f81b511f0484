import type { Command } from 'commander';
import { closeSync, fchmodSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { ExtrasClient } from '../../../client/extras.js';
import { contextOf } from '../../context.js';
import { readStateFile } from '../../emulator-flags.js';
import { UserError } from '../../errors.js';

/** scanctl state export|import|reset. */
export function register(group: Command): void {
  group
    .command('export <file>')
    .description('write the whole emulator state as diffable JSON (tables sorted, rows by primary key); - for stdout')
    .option('--include-secrets', 'put webhook signing secrets in the file in plain text, so another database can re-seal them')
    .addHelpText('after', '\nKeys, tokens and cookies are only hashes in the database and stay hashes. Without --include-secrets,\nwebhook signing secrets are exported as null (their whsec_...abcd hint stays).')
    .action(async (file: string, flags: { includeSecrets?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const state = await ctx.extras().exportState(Boolean(flags.includeSecrets));
      const text = `${JSON.stringify(state, null, 2)}\n`;
      if (file === '-') {
        ctx.io.stdout.write(text);
        return;
      }
      try {
        if (flags.includeSecrets) writePrivateFile(ctx.path(file), text);
        else writeFileSync(ctx.path(file), text);
      } catch (error) {
        throw new UserError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const rows = Object.values(state.tables).reduce((sum, t) => sum + t.length, 0);
      ctx.print({ object: 'state_export', file, schema_version: state.schema_version, tables: Object.keys(state.tables).length, rows }, (r) =>
        `Exported ${r.rows} rows of ${r.tables} tables (schema version ${r.schema_version}) to ${file}${flags.includeSecrets ? ' (with signing secrets in plain text: keep it private)' : ''}.`,
      );
    });

  group
    .command('import <file>')
    .description('replace the whole emulator state with a file from `state export` (one transaction)')
    .action(async (file: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const result = await ctx.extras().importState(await readStateFile(file, ctx));
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

  group
    .command('reset')
    .description('empty every table (faults and chaos too) and re-seed the fixtures the emulator loaded; the clock keeps its time')
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const result = await ctx.extras().resetState();
      ctx.print(result, (r) => `Reset the emulator: every table emptied, re-seeded from ${r.fixtures ?? 'no fixtures'} (apps: ${r.apps.join(', ') || 'none'}).`);
    });
}

/** Secrets in plain text: owner-only from the first byte, also when the file already existed with wider modes. */
function writePrivateFile(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
