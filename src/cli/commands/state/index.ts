import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ExtrasClient } from '../../../client/extras.js';
import { globalOptions, resolveBaseUrl } from '../../context.js';
import { UserError } from '../../errors.js';
import { printResult } from '../../output.js';
import { readStateFile } from '../../emulator-flags.js';

/** scanctl state export|import|reset (issue 6). */
export function register(group: Command): void {
  group
    .command('export <file>')
    .description('write the whole emulator state as diffable JSON (tables sorted, rows by primary key); - for stdout')
    .option('--include-secrets', 'put webhook signing secrets in the file in plain text, so another database can re-seal them')
    .addHelpText('after', '\nKeys, tokens and cookies are only hashes in the database and stay hashes. Without --include-secrets,\nwebhook signing secrets are exported as null (their whsec_...abcd hint stays).')
    .action(async (file: string, flags: { includeSecrets?: boolean }, command: Command) => {
      const options = globalOptions(command);
      const state = await new ExtrasClient(resolveBaseUrl(options)).exportState(Boolean(flags.includeSecrets));
      const text = `${JSON.stringify(state, null, 2)}\n`;
      if (file === '-') {
        process.stdout.write(text);
        return;
      }
      try {
        writeFileSync(file, text, flags.includeSecrets ? { mode: 0o600 } : {});
      } catch (error) {
        throw new UserError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const rows = Object.values(state.tables).reduce((sum, t) => sum + t.length, 0);
      printResult(Boolean(options.json), { object: 'state_export', file, schema_version: state.schema_version, tables: Object.keys(state.tables).length, rows }, (r) =>
        `Exported ${r.rows} rows of ${r.tables} tables (schema version ${r.schema_version}) to ${file}${flags.includeSecrets ? ' (with signing secrets in plain text: keep it private)' : ''}.`,
      );
    });

  group
    .command('import <file>')
    .description('replace the whole emulator state with a file from `state export` (one transaction)')
    .action(async (file: string, _flags: object, command: Command) => {
      const options = globalOptions(command);
      const state = await readStateFile(file);
      const result = await new ExtrasClient(resolveBaseUrl(options)).importState(state);
      printResult(Boolean(options.json), result, (r) => {
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
      const options = globalOptions(command);
      const result = await new ExtrasClient(resolveBaseUrl(options)).resetState();
      printResult(Boolean(options.json), result, (r) => `Reset the emulator: every table emptied, re-seeded from ${r.fixtures ?? 'no fixtures'} (apps: ${r.apps.join(', ') || 'none'}).`);
    });
}
