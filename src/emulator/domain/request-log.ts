import { parseDuration } from '../../clock/duration.js';
import { CHOICES } from '../../contract/choices.js';
import { CONTROL_PREFIX } from '../../contract/control.js';
import { parseRfc3339 } from '../../contract/time.js';
import type { LogQuery, RequestLogLine } from '../../contract/request-log.js';
import { redactSecret } from '../../util/crypto.js';
import type { Bus, RequestLogEntry } from '../bus.js';

/** Anything shaped like a key, token or signing secret; pasted into a URL by mistake, it is shown redacted. */
const SECRET_LIKE = /\b(?:sk|pk|rk|vst|whsec|psess)_(?:live_|test_)?[A-Za-z0-9+/=_-]{6,}/g;

/** Keeps a log line free of secrets: keys only in their display form, nothing secret-shaped in the path. */
export function sanitize(entry: RequestLogEntry, seq: number): RequestLogLine {
  const line: RequestLogLine = {
    seq,
    time: entry.time,
    method: entry.method,
    path: entry.path.replace(SECRET_LIKE, (secret) => redactSecret(secret)).slice(0, 500),
    status: entry.status,
    latency_ms: entry.latency_ms,
  };
  // The request log sets the key's display form; anything longer than it is refused rather than trusted.
  if (entry.key) line.key = /^[a-z]+_(?:live_|test_)?\.\.\.[A-Za-z0-9]{0,4}$/.test(entry.key) ? entry.key : redactSecret(entry.key);
  if (entry.env) line.env = entry.env;
  if (entry.app_id) line.app_id = entry.app_id;
  if (entry.error_code) line.error_code = entry.error_code;
  return line;
}

export type LogFilter = (line: RequestLogLine) => boolean;

/** Builds the filter of `logs tail` (status class or code, path prefix, method, app) and the --since cut-off. */
export function logFilter(query: LogQuery, now: number): { filter: LogFilter; sinceMs: number | null } {
  const statuses = query.status?.split(',') ?? [];
  const method = query.method?.toUpperCase();
  const all = query.all === '1' || query.all === 'true' || query.path?.startsWith(CONTROL_PREFIX) === true;
  let sinceMs: number | null = null;
  if (query.since) {
    const duration = parseDuration(query.since);
    sinceMs = duration !== null ? now - duration : parseRfc3339(query.since);
    if (Number.isNaN(sinceMs)) sinceMs = null;
  }
  const filter: LogFilter = (line) => {
    if (!all && (line.path === CONTROL_PREFIX || line.path.startsWith(`${CONTROL_PREFIX}/`))) return false;
    if (statuses.length > 0 && !statuses.some((s) => (s.endsWith('xx') ? String(line.status)[0] === s[0] : Number(s) === line.status))) {
      return false;
    }
    if (query.path && !line.path.startsWith(query.path)) return false;
    if (method && line.method !== method) return false;
    if (query.app && line.app_id !== query.app) return false;
    return true;
  };
  return { filter, sinceMs };
}

/**
 * The last CHOICES.requestLogBufferSize request log lines, and live subscribers. Listens on the
 * bus from the emulator's start, so `logs tail -n 20` can show what happened before it was run.
 */
export class RequestLogBuffer {
  private readonly lines: RequestLogLine[] = [];
  private readonly subscribers = new Set<(line: RequestLogLine) => void>();
  private seq = 0;

  constructor(
    bus: Bus,
    private readonly size = CHOICES.requestLogBufferSize,
  ) {
    bus.on('request', (entry) => this.push(entry));
  }

  private push(entry: RequestLogEntry): void {
    const line = sanitize(entry, ++this.seq);
    this.lines.push(line);
    // shift, not splice: V8 drops an array's first element in place, splice copies the rest (~10 us a request at 1,000 lines).
    if (this.lines.length > this.size) this.lines.shift();
    for (const subscriber of this.subscribers) subscriber(line);
  }

  /** The matching lines of the buffer, oldest first: since a time, then the last n. */
  recent(filter: LogFilter, sinceMs: number | null, n: number | undefined): RequestLogLine[] {
    let matching = this.lines.filter((line) => filter(line) && (sinceMs === null || Date.parse(line.time) >= sinceMs));
    if (n !== undefined) matching = n === 0 ? [] : matching.slice(-n);
    return matching;
  }

  subscribe(listener: (line: RequestLogLine) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }
}
