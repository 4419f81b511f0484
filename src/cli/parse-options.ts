import { InvalidArgumentError } from 'commander';
import { httpUrl } from './http-url.js';
import { DURATION_PATTERN, formatDuration, MAX_DURATION_MS, parseDuration } from '../clock/duration.js';

/**
 * The parsers of option and argument values, one per kind of value, for commander's
 * `argParser`: a bad value is refused while the command line is parsed, before any request,
 * with one line that says what is expected. Commander prefixes "option '--x <v>' argument 'v' is invalid."
 * Those that take their rules from the contract (and so load zod) are in parse-contract-options.ts.
 */
export type Parser<T> = (value: string) => T;

export const fail = (expected: string): never => {
  throw new InvalidArgumentError(`Expected ${expected}.`);
};

/** A whole number from min to max (decimal digits only: no 1e3, no 0x10, no sign). */
export function wholeNumber(min: number, max: number): Parser<number> {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) fail(`a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A number from min to max, fractions allowed (a probability is 0 to 1). */
export function decimal(min: number, max: number): Parser<number> {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !/^[0-9.]+$/.test(value.trim()) || !Number.isFinite(n) || n < min || n > max)
      fail(`a number from ${min} to ${max}`);
    return n;
  };
}

const probability = decimal(0, 1);

/** A duration such as 90s, 15m, 24h, 3d or 1h30m, in milliseconds, within limits that the message states. */
export function duration(limits: { min?: number; max?: number } = {}): Parser<number> {
  const min = limits.min ?? 1;
  const max = limits.max ?? MAX_DURATION_MS;
  return (value) => {
    if (!DURATION_PATTERN.test(value.trim())) fail('a duration such as 90s, 15m, 24h or 3d');
    const ms = parseDuration(value);
    if (ms === null || ms > max) fail(`a duration of at most ${describeLimit(max)}`);
    if (ms! < min) fail(`a duration of at least ${formatDuration(min)}`);
    return ms!;
  };
}

const describeLimit = (ms: number) => (ms === MAX_DURATION_MS ? '100 years (36525d)' : formatDuration(ms));

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time with its offset, e.g. 2026-12-01T00:00:00Z; returned as ISO (UTC). */
export function time(value: string): string {
  const ms = Date.parse(value);
  if (!RFC3339.test(value) || Number.isNaN(ms)) fail('an RFC 3339 time such as 2026-12-01T00:00:00Z');
  return new Date(ms).toISOString();
}

/** A duration back from now, or a time: `--since 5m`, `--since 2026-11-22T10:00:00Z`. */
export function durationOrTime(value: string): string {
  if (DURATION_PATTERN.test(value.trim())) {
    duration()(value);
    return value;
  }
  if (RFC3339.test(value) && !Number.isNaN(Date.parse(value))) return value;
  return fail('a duration such as 5m or 1h, or an RFC 3339 time such as 2026-11-22T10:00:00Z');
}

/** Text that matches a pattern, described for the message. */
export function matching(pattern: RegExp, expected: string): Parser<string> {
  return (value) => (pattern.test(value) ? value : fail(expected));
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A date (midnight UTC) or a date-time with its offset: never local time, so a run repeats on any machine. */
export function clockStart(value: string): number {
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!(ms >= 0 && ms <= LATEST_MS))
    throw new InvalidArgumentError('Expected a time such as 2026-01-01 or 2026-01-01T09:00:00Z (with Z or an offset).');
  return ms;
}

/** --delay 30s (every attempt), --delay 0.2 (a fifth of attempts, a seeded delay), --delay 30s@0.2 (a fifth, 30 s). */
export function parseDelay(value: string): { delay_ms: number | null; delay_probability: number } {
  const [first, second] = value.split('@');
  if (second !== undefined) return { delay_ms: duration()(first!), delay_probability: probability(second) };
  if (DURATION_PATTERN.test(value)) return { delay_ms: duration()(value), delay_probability: 1 };
  if (/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value)) return { delay_ms: null, delay_probability: Number(value) };
  throw new InvalidArgumentError('Expected a duration (30s), a probability (0.2) or both (30s@0.2).');
}

/** An http(s) URL, or "none" to clear it (commander turns a parsed null into ''). */
export const webhookUrl = (value: string): string => {
  if (value === 'none') return value;
  try {
    return httpUrl(value);
  } catch {
    throw new InvalidArgumentError('Expected an http(s) URL, or "none" to clear it.');
  }
};
