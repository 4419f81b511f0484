import { z } from 'zod';
import { parseJson } from '../contract/parse-json.js';

/** The run prefix of everything a conform run creates (kit.ts): the same shape on every run. */
const RUN_PREFIX = /conform_[0-9a-f]{8}/g;
/** A loopback URL's port (the receiver's, chosen per run). */
const LOOPBACK_PORT = /(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])):\d+/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const HEX = /^[0-9a-f]{32,}$/;
/** An id or a token: a lower-case prefix (vst, sk_test, ses) and at least 8 letters and digits. */
const PREFIXED_ID = /^([a-z]+(?:_[a-z]+)*)_([A-Za-z0-9]{8,})$/;

/** A string with its varying parts replaced by their shape: `vst_<24>`, `<iso-time>`, `<hex-64>`, `conform_<run>`. */
function normalizeText(text: string): string {
  const unprefixed = text.replace(RUN_PREFIX, 'conform_<run>').replace(LOOPBACK_PORT, '$1:<port>');
  if (ISO_TIME.test(unprefixed)) return '<iso-time>';
  if (HEX.test(unprefixed)) return `<hex-${unprefixed.length}>`;
  const id = PREFIXED_ID.exec(unprefixed);
  if (id) return `${id[1]}_<${id[2]!.length}>`;
  return unprefixed;
}

/**
 * A body with what differs from run to run replaced by its shape, so two runs (or two targets)
 * compare equal when they answer alike. An error's message is prose: only its presence counts.
 */
function normalizeValue(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return key === 'message' ? '<text>' : normalizeText(value);
  if (Array.isArray(value)) return value.map((item) => normalizeValue(item));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalizeValue(v, k)]),
    );
  return value;
}

/** An answer's body text, normalized: JSON by its values, anything else by its length. */
export function normalizeBody(text: string): unknown {
  if (text === '') return null;
  const parsed = parseJson(z.unknown(), text);
  return parsed.ok ? normalizeValue(parsed.value) : `<${Buffer.byteLength(text)} bytes>`;
}

/** A request line with its path's run-specific parts replaced. */
export function normalizeRequest(method: string, path: string): string {
  return `${method} ${path.replace(RUN_PREFIX, 'conform_<run>')}`;
}
