import { CHOICES } from '../../contract/choices.js';
import { ApiError } from '../../contract/errors.js';
import { SCOPES, type CreateSessionRequest, type SessionResponse } from '../../contract/sessions.js';
import { toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { ApiKeyRow } from '../../store/tables/api-keys.js';
import type { AppRow } from '../../store/tables/apps.js';
import { sha256Hex } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';

/** The quota's day: the UTC calendar day on the emulator's clock (CHOICE-5). */
function quotaDay(now: number): string {
  return toIso(now).slice(0, 10);
}

/**
 * Mints a session token (SES-2). Only its hash is stored (SES-4). The daily quota counts minted
 * tokens (SES-9); a mint is never a charge (BILL-6).
 *
 * Group commit (store/group-commit.ts): the mints that arrive in the same turn of the event loop
 * share one transaction, a refused mint (quota_exceeded) rolls back alone, and every one is
 * answered only after the commit. Under load the WAL is written once per batch, not per token.
 */
export function mintSession(
  store: Store,
  ids: Ids,
  now: number,
  auth: { key: ApiKeyRow; app: AppRow },
  body: CreateSessionRequest,
): Promise<SessionResponse> {
  return store.groupCommit.run(() => {
    const day = quotaDay(now);
    if (store.quota.used(auth.app.id, day) >= auth.app.daily_session_quota) {
      throw new ApiError(
        'quota_exceeded',
        `${auth.app.id} reached its daily session quota of ${auth.app.daily_session_quota} for ${day} (UTC).`,
      );
    }
    store.quota.increment(auth.app.id, day);
    const token = ids.secret('vst_');
    const expiresAt = now + CHOICES.sessionTokenLifetimeMs;
    store.sessions.insert({
      id: ids.id('ses'),
      token_hash: sha256Hex(token),
      app_id: auth.app.id,
      key_id: auth.key.id,
      env: auth.key.env,
      host_user_ref: body.host_user_ref,
      scopes: body.scopes ?? [...SCOPES],
      created_at: now,
      expires_at: expiresAt,
      scan_id: null,
    });
    return { session_token: token, expires_at: toIso(expiresAt) };
  });
}
