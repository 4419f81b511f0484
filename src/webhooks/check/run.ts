import { randomBytes } from 'node:crypto';
import type { WebhookEvent } from '../../contract/webhooks.js';
import { deliveryHeaders } from '../headers.js';
import { buildEvent, type ScanEventInput } from '../outbox.js';
import { WebhookSender, type SendOutcome } from '../sender.js';
import { signPayload } from '../../verify.js';

/** One conformance check of a developer's webhook receiver. */
export interface CheckResult {
  id: string;
  name: string;
  /** The rules of the spec the check exercises. */
  rules: string[];
  passed: boolean;
  /** The receiver's status on the (last) request of the check; null when it did not answer. */
  status: number | null;
  latency_ms: number | null;
  reason: string;
}

export interface CheckReport {
  object: 'webhook_check';
  url: string;
  app_id: string;
  timeout_ms: number;
  passed: number;
  failed: number;
  checks: CheckResult[];
}

export interface CheckOptions {
  url: string;
  secret: string;
  appId: string;
  /** The per-attempt limit (CHOICES.webhookAttemptTimeoutMs unless overridden). */
  timeoutMs: number;
  now?: () => number;
}

interface Sent {
  outcome: SendOutcome;
  body: string;
}

const MODEL_VERSION = 'bodyscan-check-1';
const RESULT = { modelVersion: MODEL_VERSION, measurements: { bodyFatPercent: 21.4, bmi: 23.1, girths: { waistCm: 81.5, hipCm: 97.2 } } };

/**
 * Sends the receiver every case it must handle, from the CLI itself (no emulator dispatcher
 * needed): each event type correctly signed; a wrong signature, no signature and a body changed
 * after signing (all must be refused); a replay of an acknowledged Service-Event-Id (must be
 * acknowledged again); scan.results_available before its scan.completed; unknown extra fields
 * (must be accepted); and every answer within the per-attempt timeout. Checks run one after
 * another, in this order, so that "before" and "replay" mean what they say.
 */
export async function runWebhookCheck(options: CheckOptions): Promise<CheckReport> {
  // Its own connections to the receiver, closed once the checks are done.
  const sender = new WebhookSender();
  try {
    return await checkWith(sender, options);
  } finally {
    await sender.close();
  }
}

async function checkWith(sender: WebhookSender, options: CheckOptions): Promise<CheckReport> {
  const now = options.now ?? Date.now;
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  const event = (
    type: ScanEventInput['type'],
    scan: string,
    extra?: (e: Record<string, unknown> & { data: Record<string, unknown> }) => void,
  ): WebhookEvent => {
    counter += 1;
    const built = buildEvent(`evt_check_${run}_${counter}`, now(), {
      type,
      appId: options.appId,
      scanId: `scan_check_${run}_${scan}`,
      hostUserRef: `member_check_${run}`,
      occurredAt: now() - 60_000,
      modelVersion: MODEL_VERSION,
      ...(type === 'scan.results_available' ? { result: RESULT } : {}),
    });
    if (extra) extra(built);
    return built;
  };
  const send = async (e: WebhookEvent, how: { body?: string; signature?: string | null } = {}): Promise<Sent> => {
    const body = how.body ?? JSON.stringify(e);
    const signature = how.signature === undefined ? signPayload(body, options.secret) : how.signature;
    const headers = deliveryHeaders({ eventId: e.id, eventType: e.type, signature, userAgent: 'scanctl-webhook-check' });
    const outcome = await sender.send({ url: options.url, headers, body: Buffer.from(body), timeoutMs: options.timeoutMs });
    return { outcome, body };
  };

  const checks: CheckResult[] = [];
  const latencies: number[] = [];
  const record = (id: string, name: string, rules: string[], sent: Sent, verdict: { passed: boolean; reason: string }) => {
    if (sent.outcome.status !== null) latencies.push(sent.outcome.latencyMs);
    checks.push({
      id,
      name,
      rules,
      passed: verdict.passed,
      status: sent.outcome.status,
      latency_ms: sent.outcome.status === null ? null : sent.outcome.latencyMs,
      reason: verdict.reason,
    });
  };

  // 1-3: each event type, correctly signed, must be acknowledged with a 2xx.
  const completed = event('scan.completed', 'a');
  const firstCompleted = await send(completed);
  record(
    'signed-scan-completed',
    'a signed scan.completed is acknowledged',
    ['WH-1', 'WH-2', 'WH-4', 'WH-6', 'WH-7'],
    firstCompleted,
    acknowledged(firstCompleted),
  );
  const failed = await send(event('scan.failed', 'c'));
  record('signed-scan-failed', 'a signed scan.failed is acknowledged', ['WH-2', 'WH-4', 'WH-11'], failed, acknowledged(failed));
  const results = await send(event('scan.results_available', 'a'));
  record(
    'signed-results-available',
    'a signed scan.results_available is acknowledged',
    ['WH-3', 'WH-4', 'WH-11'],
    results,
    acknowledged(results),
  );

  // 4-6: forgeries must be refused (any non-2xx answer).
  const wrongSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const forgedEvent = event('scan.completed', 'd');
  const forged = await send(forgedEvent, { signature: signPayload(JSON.stringify(forgedEvent), wrongSecret) });
  record('wrong-signature', 'a delivery signed with another secret is refused', ['WH-4'], forged, refused(forged));
  const unsigned = await send(event('scan.completed', 'e'), { signature: null });
  record('unsigned', 'a delivery without Service-Signature is refused', ['WH-4'], unsigned, refused(unsigned));
  const reserialized = event('scan.completed', 'f');
  const signedBytes = JSON.stringify(reserialized);
  const changed = await send(reserialized, {
    body: JSON.stringify(reserialized, null, 2),
    signature: signPayload(signedBytes, options.secret),
  });
  record(
    'reserialized-body',
    'a body re-serialized after signing is refused',
    ['WH-4'],
    changed,
    refused(changed, 'it accepted bytes that differ from the signed ones: verify the raw body before parsing, never a re-serialization'),
  );

  // 7: at-least-once delivery: the same event again (same id, same bytes) is acknowledged again.
  const replay = await send(completed, { body: firstCompleted.body });
  record(
    'replay',
    'a replay of an acknowledged Service-Event-Id is acknowledged again',
    ['WH-5', 'WH-8'],
    replay,
    acknowledged(replay, 'dedupe on Service-Event-Id and answer 2xx: otherwise the service retries it for about 50 hours'),
  );

  // 8: no ordering between the events of a scan.
  const early = await send(event('scan.results_available', 'b'));
  const late = await send(event('scan.completed', 'b'));
  const earlyVerdict = acknowledged(early);
  const lateVerdict = acknowledged(late);
  record(
    'results-before-completed',
    'scan.results_available before its scan.completed: both are acknowledged',
    ['WH-12', 'WH-8'],
    earlyVerdict.passed ? late : early,
    earlyVerdict.passed
      ? lateVerdict.passed
        ? { passed: true, reason: `both acknowledged (${early.outcome.status}, ${late.outcome.status}); join on scan_id` }
        : { passed: false, reason: `the later scan.completed: ${lateVerdict.reason}` }
      : {
          passed: false,
          reason: `the early scan.results_available: ${earlyVerdict.reason}; join the two on scan_id whatever order they arrive in`,
        },
  );

  // 9: fields the receiver does not know yet must not make it refuse the event.
  const extended = await send(
    event('scan.completed', 'g', (e) => {
      e.livemode = false;
      e.data.device_platform = 'ios';
    }),
  );
  record(
    'unknown-fields',
    'an event with unknown extra fields is accepted',
    ['WH-1'],
    extended,
    acknowledged(extended, 'ignore fields you do not know'),
  );

  // 10: every answer within the per-attempt timeout.
  const slowest = latencies.length ? Math.max(...latencies) : null;
  const timedOut = checks.filter((c) => c.status === null && /timed out/.test(c.reason)).length;
  checks.push({
    id: 'answer-time',
    name: `every answer comes within the ${options.timeoutMs} ms attempt timeout`,
    rules: ['WH-7', 'WH-9'],
    passed: timedOut === 0 && slowest !== null && slowest < options.timeoutMs,
    status: null,
    latency_ms: slowest,
    reason:
      timedOut > 0
        ? `${timedOut} request${timedOut === 1 ? '' : 's'} got no answer within ${options.timeoutMs} ms: answer first, process later (a queue)`
        : slowest === null
          ? 'no answer at all'
          : `slowest answer ${slowest} ms (limit ${options.timeoutMs} ms)`,
  });

  const passed = checks.filter((c) => c.passed).length;
  return {
    object: 'webhook_check',
    url: options.url,
    app_id: options.appId,
    timeout_ms: options.timeoutMs,
    passed,
    failed: checks.length - passed,
    checks,
  };
}

function noAnswer(sent: Sent): string {
  return `no answer: ${sent.outcome.error ?? 'unknown error'}`;
}

function acknowledged(sent: Sent, hint?: string): { passed: boolean; reason: string } {
  const { status } = sent.outcome;
  if (status === null) return { passed: false, reason: noAnswer(sent) };
  if (status >= 200 && status < 300) return { passed: true, reason: `acknowledged with ${status}` };
  if (status >= 300 && status < 400) {
    return { passed: false, reason: `answered ${status}: redirects are not followed, only a 2xx acknowledges` };
  }
  return { passed: false, reason: `answered ${status}, not 2xx${hint ? `: ${hint}` : ''}${excerpt(sent)}` };
}

function refused(
  sent: Sent,
  hint = 'verify Service-Signature (HMAC-SHA256 of the raw body with the whsec_ secret) and answer 4xx when it does not match',
): {
  passed: boolean;
  reason: string;
} {
  const { status } = sent.outcome;
  if (status === null) return { passed: false, reason: noAnswer(sent) };
  if (status >= 200 && status < 300) return { passed: false, reason: `accepted with ${status}: ${hint}` };
  if (status >= 500) return { passed: true, reason: `refused with ${status} (a 4xx says so plainly; a 5xx gets retried)` };
  return { passed: true, reason: `refused with ${status}` };
}

function excerpt(sent: Sent): string {
  const text = sent.outcome.excerpt?.replace(/\s+/g, ' ').trim();
  return text ? ` (${text.slice(0, 120)})` : '';
}
