import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { globalOptions } from '../../context.js';
import { printResult } from '../../output.js';

export function registerVerify(group: Command): void {
  group
    .command('verify [file]')
    .description('check a Service-Signature against the raw body bytes of FILE (or stdin, or -); exit 0 on a match')
    .requiredOption('--secret <whsec>', 'the whsec_ signing secret of the app')
    .requiredOption('--signature <hex>', 'the Service-Signature header value')
    .action(async (file: string | undefined, flags: { secret: string; signature: string }, command: Command) => {
      const options = globalOptions(command);
      const { verifySignature, SignatureVerificationError } = await import('../../../verify.js');
      let raw: Buffer;
      try {
        raw = file === undefined || file === '-' ? await readStdin() : readFileSync(file);
      } catch (error) {
        throw new UserError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      try {
        verifySignature(raw, flags.signature, flags.secret);
      } catch (error) {
        if (error instanceof SignatureVerificationError) {
          throw new UserError(`signature check failed (${error.reason}): ${error.message}`, { exitCode: EXIT.checkFailed });
        }
        throw error;
      }
      printResult(Boolean(options.json), { valid: true, bytes: raw.length }, (r) => `signature ok: it matches the ${r.bytes} bytes`);
    });
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
