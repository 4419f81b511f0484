import type { Command } from 'commander';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { contextOf } from '../../context.js';
import { appSigningSecret } from './app-secret.js';

export function register(group: Command): void {
  group
    .command('verify [file]')
    .description('check a Service-Signature against the raw body bytes of FILE (or stdin, or -); exit 0 on a match')
    .option('--secret <whsec>', "the whsec_ signing secret (default: the local emulator app's, via --app, as webhook check)")
    .requiredOption('--signature <hex>', 'the Service-Signature header value')
    .action(async (file: string | undefined, flags: { secret?: string; signature: string }, command: Command) => {
      const ctx = contextOf(command);
      const { verifySignature, SignatureVerificationError } = await import('../../../verify.js');
      const fromStdin = file === undefined || file === '-';
      if (fromStdin && ctx.io.stdin.isTTY) {
        // Nothing is piped in: waiting for the terminal would look like a hang.
        throw new UserError('webhook verify checks the raw body bytes of a file or of stdin, and stdin is a terminal', {
          hint: 'pass the body file (scanctl webhook verify body.json ...) or pipe it in (... < body.json)',
        });
      }
      const raw = await ctx.read(fromStdin ? '-' : file);
      const secret = flags.secret ?? (await appSigningSecret(ctx)).secret;
      try {
        verifySignature(raw, flags.signature, secret);
      } catch (error) {
        if (error instanceof SignatureVerificationError) {
          throw new UserError(`signature check failed (${error.reason}): ${error.message}`, { exitCode: EXIT.checkFailed });
        }
        throw error;
      }
      ctx.print({ valid: true, bytes: raw.length }, (r) => `signature ok: it matches the ${r.bytes} bytes`);
    });
}
