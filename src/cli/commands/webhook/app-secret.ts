import type { CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';

/** The --app (or default) app's whsec_ signing secret from the local emulator: what `webhook check` and `verify` use without --secret. */
export async function appSigningSecret(ctx: CommandContext): Promise<{ appId: string; secret: string }> {
  const appId = await ctx.appId();
  const secret = (await ctx.control().webhookSecret(appId)).webhook_secret;
  if (!secret) {
    throw new UserError(`${appId} has no webhook signing secret yet`, {
      hint: 'set a webhook_url (scanctl app update --webhook-url URL) to issue one, or pass --secret whsec_...',
    });
  }
  return { appId, secret };
}
