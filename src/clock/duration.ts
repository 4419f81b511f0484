import { CHOICES } from '../contract/choices.js';
import { DURATION_PATTERN } from '../contract/time.js';

export { DURATION_PATTERN };

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses durations such as `90s`, `15m`, `24h`, `3d`, `1h30m` or `250ms`.
 * Returns milliseconds, or null for anything else (including negatives, bare numbers and more than 100 years).
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!DURATION_PATTERN.test(trimmed)) return null;
  let total = 0;
  for (const [, amount, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d|w)/g)) {
    total += Number(amount) * UNITS[unit!]!;
  }
  // Anything beyond a century is a typo, and would push the clock past what a date can hold.
  if (!Number.isFinite(total) || total > MAX_DURATION_MS) return null;
  return Math.round(total);
}

/** The longest duration accepted (CHOICE-54). */
export const MAX_DURATION_MS = CHOICES.maxDurationMs;

/** Formats milliseconds as the largest units that fit, e.g. 5400000 -> "1h30m". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest}ms`);
  return sign + parts.join('');
}

/**
 * How far the emulator's time is from the machine's, to the second, as the CLI and the console
 * say it: "real time", "real time + 6d7h2m10s", "real time - 2h". Measured from the clock's time,
 * not its offset: a frozen or `--clock-start` clock has its own base (it can be behind).
 */
export function fromRealTime(emulatorMs: number, realNowMs: number): string {
  const apart = Math.round((emulatorMs - realNowMs) / 1000) * 1000;
  return apart === 0 ? 'real time' : `real time ${apart > 0 ? '+' : '-'} ${formatDuration(Math.abs(apart))}`;
}
