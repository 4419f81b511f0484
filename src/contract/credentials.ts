/** Credential prefixes and shapes of the spec's Credentials table, in one place. */
export const SECRET_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]{16,128}$/;
export const PUBLISHABLE_KEY_PATTERN = /^pk_(test|live)_[A-Za-z0-9]{16,128}$/;
export const SESSION_TOKEN_PATTERN = /^vst_[A-Za-z0-9]{16,128}$/;
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=_-]{16,128}$/;

export type KeyEnv = 'test' | 'live';

export function secretKeyEnv(key: string): KeyEnv | null {
  const env = SECRET_KEY_PATTERN.exec(key)?.[1];
  return env === 'test' || env === 'live' ? env : null;
}

/** AUTH-2: anything that starts like a publishable key is treated as one, well-formed or not. */
export function looksPublishable(key: string): boolean {
  return key.startsWith('pk_live_') || key.startsWith('pk_test_');
}
