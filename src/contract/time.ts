import { z } from 'zod';

/** Wire timestamps are ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T10:00:00.000Z. */
export const DateTime = z.iso.datetime({ offset: true });

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * RFC 3339's date-time (section 5.6), which is what `format: date-time` promises: T or t, Z or z
 * or a numeric offset, any number of fraction digits, a leap second 60.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of an RFC 3339 date-time (a leap second counts as the next second); NaN when it is not one. */
export function parseRfc3339(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return NaN;
  const [year, month, day, hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  const [offHour, offMinute] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60 || offHour > 23 || offMinute > 59)
    return NaN;
  const fractionMs = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, fractionMs);
  const offsetMs = (m[8] === '-' ? -1 : 1) * (offHour * 60 + offMinute) * 60_000;
  return utc.getTime() - offsetMs;
}

/** A date-time a client sends: every RFC 3339 form (DEV-5), not only the emulator's own output form. */
export const DateTimeInput = z
  .string()
  .max(64)
  .refine((text) => !Number.isNaN(parseRfc3339(text)), 'must be an RFC 3339 date-time, e.g. 2026-11-22T10:00:00Z')
  .meta({ format: 'date-time' });

/** A duration: one or more amounts with a unit, e.g. 90s, 15m, 1h30m, 3d, 2w. */
export const DURATION_PATTERN = /^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/;

/**
 * A whole number in a query string: digits only (`?n=`, `?n=1.5` and `?n=%201` are refused), shown
 * to clients as an integer with its bounds.
 */
export function queryInteger(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(value) ? Number(value) : value),
    z.number().int().min(min).max(max),
  );
}
