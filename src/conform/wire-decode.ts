/**
 * The decodings the redactor looks through (redact.ts): what the wire encodes (percent-encoding,
 * a form's `+`, JSON's `\u` escapes, base64) can hide a secret's prefix from a pattern over the
 * encoded text. Each decoder is lenient (a malformed escape stays as it is) and runs to a fixed
 * point, a few rounds at most, so a secret encoded twice is found too.
 */

/** A credential by its prefix, anywhere: no word boundary (`xsk_test_...` and `a_vst_...` hold one too). */
export const CREDENTIAL = /(?:sk_live|sk_test|pk_live|pk_test|vst|whsec)_[A-Za-z0-9+/=_-]+/g;
const ROUNDS = 4;

/** `%XX` runs decoded as UTF-8 where they are valid, byte by byte (Latin-1) where they are not. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** JSON string escapes (`\u0073`, `\/`) as the characters they stand for. */
function unescapeJson(text: string): string {
  return text.replace(/\\u([0-9A-Fa-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\\//g, '/');
}

/** Runs of the base64 alphabets long enough to hold a credential's prefix, decoded; null when none decodes to text with one. */
function base64Credential(text: string): boolean {
  for (const [token] of text.matchAll(/[A-Za-z0-9+/_-]{12,}={0,2}/g)) {
    const decoded = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
    if (hasCredential(decoded)) return true;
  }
  return false;
}

export function hasCredential(text: string): boolean {
  CREDENTIAL.lastIndex = 0;
  const found = CREDENTIAL.test(text);
  CREDENTIAL.lastIndex = 0;
  return found;
}

/** Every view of `text` the wire could decode it to: the text, then percent- and JSON-decoded, to a fixed point. */
export function decodedViews(text: string, { plusIsSpace = false } = {}): string[] {
  const views = [text];
  let current = text;
  for (let round = 0; round < ROUNDS; round += 1) {
    // A form's `+` is a space in its own layer only: a `%2B` it decodes to is a plus.
    const next = unescapeJson(percentDecode(plusIsSpace && round === 0 ? current.replace(/\+/g, ' ') : current));
    if (next === current) break;
    views.push(next);
    current = next;
  }
  return views;
}

/** Whether any decoding of `text` (percent, JSON escapes, base64) shows a credential. */
export function hidesCredential(text: string, options: { plusIsSpace?: boolean } = {}): boolean {
  return decodedViews(text, options).some((view) => hasCredential(view) || base64Credential(view));
}
