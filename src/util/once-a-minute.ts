/** How long a log line of one kind is held back after it was said (real ms). */
export const SAY_AGAIN_MS = 60_000;

/**
 * A log that says one line per kind at most once a minute (real time), with how many times the
 * kind came up meanwhile: a condition that every request meets is said, not repeated per request.
 */
export function onceAMinute(
  write: (line: string) => void,
  now: () => number = () => performance.now(),
): (kind: string, line: string) => void {
  const last = new Map<string, { at: number; unsaid: number }>();
  return (kind, line) => {
    const at = now();
    const seen = last.get(kind);
    if (seen && at - seen.at < SAY_AGAIN_MS) {
      seen.unsaid += 1;
      return;
    }
    write(`${line}${seen && seen.unsaid > 0 ? ` (${seen.unsaid} more since the last line)` : ''}`);
    last.set(kind, { at, unsaid: 0 });
  };
}
