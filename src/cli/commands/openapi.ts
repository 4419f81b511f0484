import { Option, type Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { contextOf } from '../context.js';
import { UserError } from '../errors.js';
import { httpUrl } from '../http-url.js';
import { errorMessage, errorCode } from '../../util/caught.js';

/**
 * scanctl openapi [--output FILE]: the OpenAPI 3.1 document, built from the contract modules
 * alone (no emulator, no database), the same one `GET /_scanctl/openapi.json` serves.
 */
export function register(program: Command): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of every route, generated from the zod schemas (also served at /_scanctl/openapi.json)')
    .option('-o, --output <file>', 'write it to a file instead of stdout')
    .addOption(new Option('--server-url <url>', 'the server the document points at').argParser(httpUrl).default('http://127.0.0.1:7226'))
    .action(async (flags: { output?: string; serverUrl: string }, command: Command) => {
      const ctx = contextOf(command);
      const { buildOpenApiDocument } = await import('../../contract/openapi.js');
      const text = `${JSON.stringify(buildOpenApiDocument({ serverUrl: flags.serverUrl }), null, 2)}\n`;
      if (!flags.output) {
        ctx.io.stdout.write(text);
        return;
      }
      try {
        writeFileSync(ctx.path(flags.output), text);
      } catch (error) {
        throw new UserError(`cannot write ${flags.output} (${errorCode(error) ?? errorMessage(error)})`);
      }
      ctx.io.stderr.write(`scanctl: wrote ${flags.output}\n`);
    });
}
