import { parseDuration } from '../clock/duration.js';

/** An ISO 8601 time or a Date, as ms; anything else is refused with the option's name. */
export function timeOf(value: string | Date | number, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new TypeError(`${name} must be an ISO 8601 time or a Date, not ${JSON.stringify(value)}`);
  return ms;
}

/** A duration as the CLI takes it ('90s', '15m', '1h30m') or milliseconds. */
export function durationOf(value: string | number): number {
  const ms = typeof value === 'number' ? value : parseDuration(value);
  if (ms === null || !Number.isFinite(ms) || ms < 0)
    throw new TypeError(`a duration is milliseconds or a string such as 90s, 15m or 24h, not ${JSON.stringify(value)}`);
  return ms;
}
