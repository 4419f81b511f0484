import type { Command } from 'commander';
import { closeSync, fchmodSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { CHOICES } from '../../../contract/choices.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { errorMessage, errorCode } from '../../../util/caught.js';

/** `scanctl state export FILE`. */
export function register(group: Command): void {
  group
    .command('export <file>')
    .description('write the whole emulator state as diffable JSON (tables sorted, rows by primary key); - for stdout')
    .option('--include-secrets', 'put webhook signing secrets in the file in plain text, so another database can re-seal them')
    .addHelpText(
      'after',
      '\nKeys, tokens and cookies are only hashes in the database and stay hashes. Without --include-secrets,\nwebhook signing secrets are exported as null (their whsec_...abcd hint stays).',
    )
    .action(async (file: string, flags: { includeSecrets?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const state = await ctx.control().exportState(Boolean(flags.includeSecrets));
      const text = `${JSON.stringify(state, null, 2)}\n`;
      if (file === '-') {
        ctx.io.stdout.write(text);
        return;
      }
      try {
        if (flags.includeSecrets) writePrivateFile(ctx.path(file), text);
        else writeFileSync(ctx.path(file), text);
      } catch (error) {
        throw new UserError(`cannot write ${file}: ${errorCode(error) ?? errorMessage(error)}`);
      }
      const rows = Object.values(state.tables).reduce((sum, t) => sum + t.length, 0);
      ctx.print(
        { object: 'state_export', file, schema_version: state.schema_version, tables: Object.keys(state.tables).length, rows },
        (r) =>
          `Exported ${r.rows} rows of ${r.tables} tables (schema version ${r.schema_version}) to ${file}${flags.includeSecrets ? ' (with signing secrets in plain text: keep it private)' : ''}.`,
      );
    });
}

/** Secrets in plain text: owner-only from the first byte, also when the file already existed with wider modes. */
function writePrivateFile(file: string, text: string): void {
  const fd = openSync(file, 'w', CHOICES.privateFileMode);
  try {
    fchmodSync(fd, CHOICES.privateFileMode);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
