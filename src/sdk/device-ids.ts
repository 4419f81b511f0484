import { createHash } from 'node:crypto';
import { base62From } from '../util/crypto.js';

/**
 * The device's own ids (installation, scan, idempotency keys), drawn from the session token it was
 * given, as a hash: as random as the token against the service, and the same on every run against
 * an emulator whose tokens are seeded (`serve --seed`), so that seeded runs repeat byte for byte.
 */
export function deviceId(prefix: string, length: number, ...parts: Array<string | number>): string {
  let block = 0;
  return `${prefix}_${base62From(length, () =>
    createHash('sha256')
      .update([...parts, block++].join('\u0000'))
      .digest(),
  )}`;
}
