import { CHOICES } from '../../contract/choices.js';
import { SESSION_TOKEN_PATTERN } from '../../contract/credentials.js';
import type { DeviceChallenge, EnrollmentRequest, Enrollment, Installation, MeshFit, Model, ModelKey } from '../../contract/device.js';
import { MODEL_VERSIONS } from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import { toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { AppRow } from '../../store/tables/apps.js';
import type { InstallationRow } from '../../store/tables/device.js';
import type { SessionRow } from '../../store/tables/sessions.js';
import { createHash } from 'node:crypto';
import { redactSecret, safeEqual, sha256Hex } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';

export interface DeviceAuth {
  session: SessionRow;
  app: AppRow;
  scopes: string[];
  display: string;
}

/**
 * AUTH-13: the device routes take only a session token. A secret or publishable key there is
 * refused with its own code, so a key that leaked into an app is noticed at once. AUTH-14: the
 * key that minted the token is not consulted, so a revocation reaches devices within one token lifetime.
 */
export function authenticateSessionToken(store: Store, now: number, authorization: string | undefined): DeviceAuth {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw new ApiError('session_token_invalid', 'The device routes need Authorization: Bearer vst_... (a session token).');
  }
  const presented = match[1]!;
  if (/^(sk|pk)_(live|test)_/.test(presented)) {
    throw new ApiError(
      'secret_key_not_accepted',
      'The device routes accept only session tokens (vst_...). A secret or publishable key has no use here, and a secret key must never be in an app: mint a session on your server and pass its token.',
    );
  }
  const session = SESSION_TOKEN_PATTERN.test(presented) ? store.sessions.byTokenHash(sha256Hex(presented)) : undefined;
  if (!session) throw new ApiError('session_token_invalid', `No such session token: ${redactSecret(presented)}.`);
  if (now >= session.expires_at) {
    throw new ApiError(
      'session_token_expired',
      `The session token ${redactSecret(presented)} expired at ${toIso(session.expires_at)}; mint a new one on your server.`,
    );
  }
  return {
    session,
    app: store.apps.get(session.app_id)!,
    scopes: session.scopes,
    display: redactSecret(presented),
  };
}

export function issueChallenge(store: Store, ids: Ids, now: number, app: AppRow): DeviceChallenge {
  const challenge = ids.secret('chl_');
  const expiresAt = now + CHOICES.challengeLifetimeMs;
  store.device.purgeChallenges(now);
  store.device.insertChallenge({ hash: sha256Hex(challenge), app_id: app.id, expires_at: expiresAt, used_at: null });
  return { object: 'challenge', challenge, expires_at: toIso(expiresAt) };
}

export function installationView(row: InstallationRow): Installation {
  return {
    object: 'installation',
    id: row.id,
    app_id: row.app_id,
    status: row.status,
    app_version: row.app_version,
    enrolled_at: toIso(row.enrolled_at),
    enrollments: row.enrollments,
    blocked_at: row.blocked_at === null ? null : toIso(row.blocked_at),
    last_seen_at: toIso(row.last_seen_at),
  };
}

/**
 * DEV-1, DEV-2, APP-5: enrollment with the stub attestation. The bundle and team identifiers
 * must equal the app's exactly (no trimming, no case folding). A known installation enrolling
 * again (after a reinstall) keeps its id and its state: a blocked one stays blocked.
 */
export function enroll(store: Store, now: number, app: AppRow, body: EnrollmentRequest): { view: Enrollment; created: boolean } {
  const { attestation } = body;
  // CHOICE-18: the challenge is used up by any attempt, a refused one included (committed on its
  // own), so a refused attestation cannot be retried against the same challenge.
  const hash = sha256Hex(attestation.challenge);
  const known = store.device.challenge(hash);
  if (!known || known.app_id !== app.id || !store.device.useChallenge(hash, now)) {
    throw new ApiError(
      'challenge_invalid',
      'The attestation challenge is unknown, already used or expired: request a new one with POST /v1/device/challenge.',
      'attestation.challenge',
    );
  }
  return store.db.transaction((): { view: Enrollment; created: boolean } => {
    const bundleOk = safeEqual(attestation.bundle_id, app.bundle_id);
    const teamOk = safeEqual(attestation.team_id, app.team_id);
    const existing = store.device.installation(body.installation_id);
    if (!bundleOk || !teamOk || (existing && existing.app_id !== app.id)) {
      // DEV-2: the message names attestation, never which identifier differed.
      throw new ApiError('attestation_invalid', 'The device attestation is invalid for this app; the installation was not enrolled.');
    }
    const appVersion = body.app_version ?? null;
    if (existing) store.device.reenroll(existing.id, appVersion, now);
    else {
      store.device.insertInstallation({
        id: body.installation_id,
        app_id: app.id,
        status: 'enrolled',
        bundle_id: attestation.bundle_id,
        team_id: attestation.team_id,
        app_version: appVersion,
        enrolled_at: now,
        enrollments: 1,
        blocked_at: null,
        last_seen_at: now,
      });
    }
    const row = store.device.installation(body.installation_id)!;
    return {
      created: !existing,
      view: {
        object: 'enrollment',
        installation_id: row.id,
        status: row.status,
        enrolled_at: toIso(row.enrolled_at),
        reenrolled: Boolean(existing),
        enrollments: row.enrollments,
      },
    };
  })();
}

/** The installation behind a device call: enrolled for this app; blocked ones are refused when `refuseBlocked`. */
export function enrolledInstallation(store: Store, app: AppRow, installationId: string, refuseBlocked: boolean): InstallationRow {
  const row = store.device.installation(installationId);
  if (!row || row.app_id !== app.id) {
    throw new ApiError(
      'installation_not_enrolled',
      `Installation ${installationId} is not enrolled for ${app.id}: enroll it with POST /v1/device/enrollments first.`,
      'installation_id',
    );
  }
  if (refuseBlocked && row.status === 'blocked') throw blockedError(row.id);
  return row;
}

export function blockedError(installationId: string): ApiError {
  return new ApiError(
    'installation_blocked',
    `Installation ${installationId} is blocked by the service; its scans cannot start.`,
    'installation_id',
  );
}

// ---- Models: a small generated file per version, with a size and a sha256 the device can verify.

const modelCache = new Map<string, Buffer>();

/** Deterministic model bytes: sha256 in counter mode over the version, CHOICES.modelSizeBytes long. */
export function modelBytes(version: string): Buffer | null {
  if (!(MODEL_VERSIONS as readonly string[]).includes(version)) return null;
  let bytes = modelCache.get(version);
  if (!bytes) {
    const blocks: Buffer[] = [];
    for (let i = 0; i * 32 < CHOICES.modelSizeBytes; i += 1) {
      blocks.push(createHash('sha256').update(`scanctl-model:${version}:${i}`).digest());
    }
    bytes = Buffer.concat(blocks).subarray(0, CHOICES.modelSizeBytes);
    modelCache.set(version, bytes);
  }
  return bytes;
}

export function modelManifest(): Model[] {
  return MODEL_VERSIONS.map((version, i) => {
    const bytes = modelBytes(version)!;
    return {
      object: 'model',
      model_version: version,
      size: bytes.length,
      sha256: sha256Hex(bytes),
      url: `/v1/models/${version}`,
      current: i === 0,
    };
  });
}

export function requireModel(version: string, param = 'model_version'): void {
  if (!(MODEL_VERSIONS as readonly string[]).includes(version)) {
    throw new ApiError('resource_missing', `No model ${version.slice(0, 40)}; GET /v1/models lists them.`, param);
  }
}

/**
 * DEV-4: the model key needs the token plus an enrolled installation (attestation stands in
 * front of it, SES-8); a blocked installation is refused (DEV-3). An app update keeps the enrollment.
 */
export function issueModelKey(
  store: Store,
  now: number,
  auth: DeviceAuth,
  body: { installation_id: string; model_version: string; app_version?: string | undefined },
): ModelKey {
  requireModel(body.model_version);
  const installation = enrolledInstallation(store, auth.app, body.installation_id, true);
  store.device.touchInstallation(installation.id, body.app_version ?? null, now);
  const key = createHash('sha256').update(`scanctl-model-key:${body.model_version}`).digest('base64url');
  return { object: 'model_key', model_version: body.model_version, key, expires_at: toIso(auth.session.expires_at) };
}

/** Mesh fitting: the template for the model; nothing about the member is sent or kept. */
export function meshFit(
  store: Store,
  ids: Ids,
  now: number,
  auth: DeviceAuth,
  body: { installation_id: string; model_version: string },
): MeshFit {
  requireModel(body.model_version);
  const installation = enrolledInstallation(store, auth.app, body.installation_id, true);
  store.device.touchInstallation(installation.id, null, now);
  const sha = createHash('sha256').update(`scanctl-mesh:${body.model_version}`).digest('hex');
  return {
    object: 'mesh_fit',
    fit_id: ids.id('fit'),
    model_version: body.model_version,
    template: { vertices: 6890, faces: 13776, sha256: sha },
    created_at: toIso(now),
  };
}
