import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random base62 string of `length` characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  // 248 of 256 byte values are kept: twice the length is plenty, and base62From draws more if not.
  return base62From(length, () => randomBytes(length * 2));
}

/** A base62 string of `length` characters from a source of bytes (rejection sampling: no modulo bias). */
export function base62From(length: number, nextBytes: () => Uint8Array): string {
  let out = '';
  while (out.length < length) {
    for (const byte of nextBytes()) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two strings (false on different lengths without leaking contents). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/** The non-secret form of a key shown after issuance (AUTH-11): prefix and last four characters. */
export function redactSecret(secret: string): string {
  const prefix = /^[a-z]+_(live_|test_)?/.exec(secret)?.[0] ?? '';
  return `${prefix}...${secret.slice(-4)}`;
}

/**
 * Encrypts secrets the emulator must be able to read back (webhook signing secrets), so that
 * none is in plain text in the SQLite file or its WAL. AES-256-GCM with a key kept beside the database.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  static random(): SecretBox {
    return new SecretBox(randomBytes(32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}
