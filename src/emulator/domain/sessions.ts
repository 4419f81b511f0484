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
export function quotaDay(now: number): string {
  return toIso(now).slice(0, 10);
}

/** One transaction function per store, built once: better-sqlite3's db.transaction() is not free per call. */
const mints = new WeakMap<Store, (...args: Parameters<typeof mintInTransaction>) => SessionResponse>();

function mintTransaction(store: Store) {
  let mint = mints.get(store);
  if (!mint) mints.set(store, (mint = store.db.transaction(mintInTransaction)));
  return mint;
}

interface PendingMint {
  args: Parameters<typeof mintInTransaction>;
  resolve: (session: SessionResponse) => void;
  reject: (error: unknown) => void;
}

/**
 * Mints a session token (SES-2). Only its hash is stored (SES-4). The daily quota counts minted
 * tokens (SES-9); a mint is never a charge (BILL-6).
 *
 * Group commit: the mints that arrive in the same turn of the event loop run in ONE transaction,
 * each inside its own savepoint (a refused mint, e.g. quota_exceeded, rolls back alone), and
 * every one is answered only after that transaction has committed, so nothing acknowledged can be
 * lost. Under concurrent load this writes the WAL once per batch instead of once per token.
 */
export function mintSession(
  store: Store,
  ids: Ids,
  now: number,
  auth: { key: ApiKeyRow; app: AppRow },
  body: CreateSessionRequest,
): Promise<SessionResponse> {
  let group = groups.get(store);
  if (!group) groups.set(store, (group = { pending: [], commit: store.db.transaction(commitGroup) }));
  const batch = group;
  return new Promise((resolve, reject) => {
    if (batch.pending.length === 0) setImmediate(() => flush(batch));
    batch.pending.push({ args: [store, ids, now, auth, body], resolve, reject });
  });
}

interface MintGroup {
  pending: PendingMint[];
  commit: (batch: PendingMint[]) => Array<{ ok: true; value: SessionResponse } | { ok: false; error: unknown }>;
}
const groups = new WeakMap<Store, MintGroup>();

function commitGroup(batch: PendingMint[]) {
  return batch.map((item) => {
    try {
      // Nested in the group's transaction, better-sqlite3 runs this as a savepoint.
      return { ok: true as const, value: mintTransaction(item.args[0])(...item.args) };
    } catch (error) {
      return { ok: false as const, error };
    }
  });
}

function flush(group: MintGroup): void {
  const batch = group.pending;
  group.pending = [];
  let outcomes;
  try {
    outcomes = group.commit(batch);
  } catch (error) {
    // The commit itself failed: nothing of the batch was stored.
    for (const item of batch) item.reject(error);
    return;
  }
  outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
}

function mintInTransaction(
  store: Store,
  ids: Ids,
  now: number,
  auth: { key: ApiKeyRow; app: AppRow },
  body: CreateSessionRequest,
): SessionResponse {
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
    scopes: JSON.stringify(body.scopes ?? [...SCOPES]),
    created_at: now,
    expires_at: expiresAt,
    scan_id: null,
  });
  return { session_token: token, expires_at: toIso(expiresAt) };
}
