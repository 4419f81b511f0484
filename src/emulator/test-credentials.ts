import { ensureSigningSecret } from '../webhooks/signing-secret.js';
import type { Emulator } from './create-emulator.js';
import { fixtureKeys } from './seed.js';

/** What a backend under test is configured with: the default app, its fixture test keys, its signing secret. */
export interface TestCredentials {
  appId: string;
  secretKey: string | null;
  publishableKey: string | null;
  webhookSecret: string;
}

/**
 * The default app's test credentials (`startEmulator`'s handle, `exec`'s environment). The signing
 * secret is issued now when the app has none, the way `webhook listen` does. Null when there is no app.
 */
export function testCredentials(emulator: Emulator): TestCredentials | null {
  const appId = emulator.config.defaultAppId;
  if (!appId || !emulator.store.apps.get(appId)) return null;
  let keys = null;
  try {
    keys = fixtureKeys(emulator, appId).test;
  } catch {
    // The fixture file no longer reads (an imported state from elsewhere): no keys to give.
  }
  return {
    appId,
    secretKey: keys?.secret ?? null,
    publishableKey: keys?.publishable ?? null,
    webhookSecret: ensureSigningSecret(emulator.store, emulator.ids, emulator.box, emulator.clock.now(), appId),
  };
}
