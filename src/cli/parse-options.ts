import { InvalidArgumentError, type Option } from 'commander';
import { DURATION_PATTERN, formatDuration, MAX_DURATION_MS, parseDuration } from '../clock/duration.js';

/**
 * The parsers of option and argument values, one per kind of value, for commander's
 * `argParser`: a bad value is refused while the command line is parsed, before any request,
 * with one line that says what is expected. Commander prefixes "option '--x <v>' argument 'v' is invalid."
 */
type Parser<T> = (value: string) => T;

const fail = (expected: string): never => {
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
function decimal(min: number, max: number): Parser<number> {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !/^[0-9.]+$/.test(value.trim()) || !Number.isFinite(n) || n < min || n > max) fail(`a number from ${min} to ${max}`);
    return n;
  };
}

export const probability = decimal(0, 1);

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

/** An http(s) URL. */
export function httpUrl(value: string): string {
  if (!isHttpUrl(value)) fail('an http(s) URL such as http://127.0.0.1:3000/webhooks');
  return value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Text that matches a pattern, described for the message. */
export function matching(pattern: RegExp, expected: string): Parser<string> {
  return (value) => (pattern.test(value) ? value : fail(expected));
}

/** A repeatable option: each value is parsed, then collected. */
function repeatable<T>(parse: Parser<T>): (value: string, previous: T[] | undefined) => T[] {
  return (value, previous) => [...(previous ?? []), parse(value)];
}

/**
 * The environment variables the CLI reads itself rather than through commander's Option.env()
 * (which would also take a blank value, and reads process.env instead of the command's io): named
 * here so that the reference's Env column shows them.
 */
const readByCli = new WeakMap<Option, string>();

export function envReadByCli(option: Option, name: string): Option {
  readByCli.set(option, name);
  return option;
}

/** The environment variable an option takes its value from, however it is read. */
export const envOfOption = (option: Option): string | undefined => option.envVar ?? readByCli.get(option);
