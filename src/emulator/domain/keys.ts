import { CHOICES } from '../../contract/choices.js';
import type { ApiKey } from '../../contract/control.js';
import { looksPublishable, secretKeyEnv, type KeyEnv } from '../../contract/credentials.js';
import { ApiError, type ErrorCode } from '../../contract/errors.js';
import type { AccountRow } from '../../store/tables/accounts.js';
import type { AppRow } from '../../store/tables/apps.js';
import type { ApiKeyRow } from '../../store/tables/api-keys.js';
import type { Store } from '../../store/index.js';
import { redactSecret, sha256Hex } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';
import { toIso } from '../../contract/time.js';

/** The spec's key states: active, in rotation grace period, revoked, suspended. */
export type KeyState = 'active' | 'rotating' | 'revoked' | 'suspended';

/** AUTH-8: a rotated key is "rotating" until its grace ends, then revoked; read off the clock, no timer needed. */
function keyState(row: ApiKeyRow, now: number): KeyState {
  if (row.status !== 'active') return row.status;
  if (row.grace_until !== null) return now < row.grace_until ? 'rotating' : 'revoked';
  return 'active';
}

/** A key as the API and the console show it; `secret` only when it was just issued. */
export function keyView(row: ApiKeyRow, now: number, secret?: string): ApiKey {
  const view: ApiKey = {
    id: row.id,
    object: 'api_key',
    env: row.env,
    kind: row.kind,
    display: row.display,
    state: keyState(row, now),
    grace_until: row.grace_until === null ? null : toIso(row.grace_until),
    replaced_by: row.replaced_by,
    created_at: toIso(row.created_at),
  };
  if (secret) view.secret = secret;
  return view;
}

function hashKey(secret: string): string {
  return sha256Hex(secret);
}

export type AuthFailure = 'missing' | 'malformed' | 'publishable' | 'unknown' | 'revoked' | 'suspended' | 'account_suspended';

export type SecretKeyAuth =
  { ok: true; key: ApiKeyRow; app: AppRow; account: AccountRow; env: KeyEnv } | { ok: false; reason: AuthFailure; message: string };

/** Reads `Authorization: Bearer <secret key>` and says whether the key is usable, and if not why. */
export function authenticateSecretKey(store: Store, now: number, authorization: string | undefined): SecretKeyAuth {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!authorization) {
    return { ok: false, reason: 'missing', message: 'No secret key provided: send Authorization: Bearer sk_test_... or sk_live_....' };
  }
  if (!match) return { ok: false, reason: 'malformed', message: 'The Authorization header must be "Bearer <secret key>".' };
  const presented = match[1]!;
  if (looksPublishable(presented)) {
    return { ok: false, reason: 'publishable', message: 'A publishable key cannot call this API; use the secret key on your server.' };
  }
  const env = secretKeyEnv(presented);
  if (!env)
    return { ok: false, reason: 'malformed', message: 'The secret key is malformed: it should look like sk_test_... or sk_live_....' };
  const key = store.keys.byHash(hashKey(presented));
  if (!key || key.kind !== 'secret') {
    return { ok: false, reason: 'unknown', message: `No such secret key: ${redactSecret(presented)}.` };
  }
  const state = keyState(key, now);
  if (state === 'revoked') {
    const why = key.grace_until !== null ? 'was rotated and its 24-hour grace period has ended' : 'has been revoked';
    return { ok: false, reason: 'revoked', message: `The secret key ${key.display} ${why}.` };
  }
  if (state === 'suspended') return { ok: false, reason: 'suspended', message: `The secret key ${key.display} is suspended.` };
  const app = store.apps.get(key.app_id)!;
  const account = store.accounts.get(app.account_id)!;
  if (account.suspended) {
    return { ok: false, reason: 'account_suspended', message: `The account ${account.id} is suspended.` };
  }
  return { ok: true, key, app, account, env: key.env };
}

/** The spec's own code for each refusal (AUTH-2, AUTH-3, AUTH-5..7); a route that does not declare it answers 401 invalid_api_key. */
export function refusalCode(reason: AuthFailure): ErrorCode {
  return (
    {
      missing: 'invalid_api_key',
      malformed: 'invalid_api_key',
      unknown: 'invalid_api_key',
      publishable: 'publishable_key_used',
      revoked: 'key_revoked',
      suspended: 'key_suspended',
      account_suspended: 'account_suspended',
    } as const
  )[reason];
}

export interface IssuedKeyPair {
  env: KeyEnv;
  secret: { id: string; key: string };
  publishable: { id: string; key: string };
}

/** AUTH-10: each app holds one live and one test pair, issued separately; live needs billing profile and terms. */
export function issueKeyPair(store: Store, ids: Ids, now: number, app: AppRow, env: KeyEnv): IssuedKeyPair {
  if (env === 'live' && !(app.billing_profile && app.terms_accepted)) {
    throw new ApiError(
      'live_keys_not_allowed',
      `Live keys need the app owner's billing profile and accepted terms; ${app.id} has ${!app.billing_profile ? 'no billing profile' : 'not accepted the terms'}.`,
    );
  }
  const current = currentSecretKey(store, now, app.id, env);
  if (current) {
    throw new ApiError('key_exists', `${app.id} already holds a ${env} key pair (${current.display}); rotate or revoke it first.`);
  }
  return store.db.transaction(() => {
    const secret = insertKey(store, ids, now, app.id, env, 'secret');
    const publishable = insertKey(store, ids, now, app.id, env, 'publishable');
    return { env, secret, publishable };
  })();
}

/** AUTH-8: the replacement works at once; the old key keeps working for the grace period, then is revoked. */
export function rotateSecretKey(store: Store, ids: Ids, now: number, app: AppRow, env: KeyEnv) {
  const current = currentSecretKey(store, now, app.id, env);
  if (!current) throw new ApiError('resource_missing', `${app.id} has no active ${env} secret key to rotate.`);
  if (keyState(current, now) === 'suspended') {
    throw new ApiError('key_state_conflict', `The ${env} secret key ${current.display} is suspended; reinstate it before rotating.`);
  }
  return store.db.transaction(() => {
    const replacement = insertKey(store, ids, now, app.id, env, 'secret');
    const graceUntil = now + CHOICES.rotationGraceMs;
    store.keys.update({ id: current.id, status: 'active', grace_until: graceUntil, replaced_by: replacement.id }, now);
    return { env, secret: replacement, previous: { id: current.id, display: current.display, grace_until: graceUntil } };
  })();
}

export type KeyAction = 'revoke' | 'suspend' | 'reinstate';

/** CHOICE-8: revoke is final; suspend and reinstate toggle a key that is not revoked. */
export function changeKeyState(store: Store, now: number, key: ApiKeyRow, action: KeyAction): ApiKeyRow {
  const state = keyState(key, now);
  if (state === 'revoked')
    throw new ApiError('key_state_conflict', `The key ${key.display} is revoked; a revoked key cannot be ${action}d.`);
  if (action === 'revoke')
    store.keys.update({ id: key.id, status: 'revoked', grace_until: key.grace_until, replaced_by: key.replaced_by }, now);
  if (action === 'suspend') {
    if (state === 'suspended') throw new ApiError('key_state_conflict', `The key ${key.display} is already suspended.`);
    store.keys.update({ id: key.id, status: 'suspended', grace_until: key.grace_until, replaced_by: key.replaced_by }, now);
  }
  if (action === 'reinstate') {
    if (state !== 'suspended') throw new ApiError('key_state_conflict', `The key ${key.display} is not suspended.`);
    store.keys.update({ id: key.id, status: 'active', grace_until: key.grace_until, replaced_by: key.replaced_by }, now);
  }
  return store.keys.byId(key.id)!;
}

/** The key that a revoke, suspend or reinstate names: by key_id, or the app's current secret key of env. */
export function keyToChange(
  store: Store,
  now: number,
  app: AppRow,
  target: { env?: KeyEnv | undefined; key_id?: string | undefined },
): ApiKeyRow {
  if (target.key_id) {
    const key = store.keys.byId(target.key_id);
    if (!key || key.app_id !== app.id)
      throw new ApiError('resource_missing', `No key ${target.key_id.slice(0, 100)} on ${app.id}.`, 'key_id');
    return key;
  }
  const env = target.env ?? 'test';
  const key = currentSecretKey(store, now, app.id, env);
  if (!key) throw new ApiError('resource_missing', `${app.id} has no current ${env} secret key.`, 'env');
  return key;
}

/** The app's current secret key of `env`: the one not replaced by a rotation and not revoked. */
function currentSecretKey(store: Store, now: number, appId: string, env: KeyEnv): ApiKeyRow | undefined {
  return store.keys
    .forApp(appId)
    .filter((k) => k.kind === 'secret' && k.env === env && k.replaced_by === null && keyState(k, now) !== 'revoked')
    .at(-1);
}

function insertKey(store: Store, ids: Ids, now: number, appId: string, env: KeyEnv, kind: 'secret' | 'publishable') {
  const key = ids.secret(`${kind === 'secret' ? 'sk' : 'pk'}_${env}_`);
  return { id: storeKey(store, ids.id('key'), now, appId, env, kind, key), key };
}

function storeKey(store: Store, id: string, now: number, appId: string, env: KeyEnv, kind: 'secret' | 'publishable', key: string): string {
  store.keys.insert({
    id,
    app_id: appId,
    env,
    kind,
    hash: hashKey(key),
    // Publishable keys are safe to ship, so they are shown in full; secret keys only redacted (AUTH-11).
    display: kind === 'secret' ? redactSecret(key) : key,
    status: 'active',
    grace_until: null,
    replaced_by: null,
    created_at: now,
  });
  return id;
}

/** Ensures a fixture's key exists; an existing key keeps its state (a restart never revives a revoked key). */
export function ensureFixtureKey(
  store: Store,
  ids: Ids,
  now: number,
  appId: string,
  env: KeyEnv,
  kind: 'secret' | 'publishable',
  key: string,
): void {
  if (!store.keys.byHash(hashKey(key))) storeKey(store, ids.id('key'), now, appId, env, kind, key);
}
