// A TypeScript team's backend, as it would write it with Express 5: it mints session tokens for its
// own members, receives the service's signed webhooks and deletes a member's stored results on
// request. Strict TypeScript that Node 24 runs as it is (type stripping): no enums, no namespaces,
// type-only imports marked, relative imports with their `.ts`.
import express, { type NextFunction, type Request, type Response } from 'express';
import { SignatureVerificationError, verifySignature } from 'scanctl/verify';

export interface CompletedScan {
  member: string;
  /** When the scan finished on the device: the month it is billed in (BILL-4). */
  occurredAt: string;
}

/** Where the webhook handler writes: a database in production; a test injects one that fails. */
export interface Store {
  saveCompletedScan(scanId: string, scan: CompletedScan): void | Promise<void>;
  saveResult(member: string, scanId: string, result: unknown): void | Promise<void>;
  deleteResults(member: string): void | Promise<void>;
}

export interface AppOptions {
  /** The service, or the emulator: SCANCTL_BASE_URL. */
  serviceUrl: string;
  /** SCANCTL_SECRET_KEY. */
  secretKey: string;
  /** SCANCTL_WEBHOOK_SECRET as the environment gives it: an unset secret refuses every delivery (missing_secret). */
  webhookSecret: string | undefined;
  store: Store;
}

/** What the service sends (WH-1); only the fields this backend reads. */
interface WebhookEvent {
  id: string;
  type: string;
  data: { scan_id: string; host_user_ref: string; occurred_at: string; result?: unknown };
}

function isWebhookEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null || !('type' in value) || !('data' in value)) return false;
  const data = value.data;
  return typeof data === 'object' && data !== null && 'scan_id' in data && 'host_user_ref' in data && 'occurred_at' in data;
}

export function createApp({ serviceUrl, secretKey, webhookSecret, store }: AppOptions): express.Express {
  /** Service-Event-Id of every event handled: delivery is at-least-once (WH-8), so each is handled once. */
  const handled = new Set<string>();
  const app = express();

  /**
   * The member's app asks for a scan session. The member is whoever the backend's own sign-in says
   * (a header stands in for it here), never a value the app sends: it is the billing unit.
   */
  app.post('/scan-sessions', async (req, res) => {
    const member = req.get('x-member-id');
    if (member === undefined || member === '') return void res.status(401).json({ error: 'sign in first' });
    const answer = await fetch(`${serviceUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ host_user_ref: member }),
    });
    if (answer.status !== 201) return void res.status(502).json({ error: 'the scan service refused', status: answer.status });
    const { session_token, expires_at } = (await answer.json()) as { session_token: string; expires_at: string };
    res.status(201).json({ session_token, expires_at });
  });

  /** The raw bytes, as received: the signature is checked over them before anything is parsed (WH-4). */
  app.post('/webhooks', express.raw({ type: () => true }), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      verifySignature(raw, req.get('service-signature'), webhookSecret);
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      return void res.status(400).json({ error: error.reason });
    }
    const eventId = req.get('service-event-id') ?? '';
    if (handled.has(eventId)) return void res.status(200).json({ duplicate: true });
    const event: unknown = JSON.parse(raw.toString('utf8'));
    if (!isWebhookEvent(event)) return void res.status(400).json({ error: 'not an event' });
    const { scan_id, host_user_ref, occurred_at, result } = event.data;
    // A store that throws answers 500 (the error handler below) and the event stays unhandled: the retry handles it.
    if (event.type === 'scan.completed') await store.saveCompletedScan(scan_id, { member: host_user_ref, occurredAt: occurred_at });
    if (event.type === 'scan.results_available') await store.saveResult(host_user_ref, scan_id, result);
    handled.add(eventId);
    res.status(200).json({ received: true });
  });

  /** A member exercising deletion: the service forgets their results (DELETE /v1/results), and so do we. */
  app.delete('/members/:member/results', async (req, res) => {
    const member = req.params.member;
    const answer = await fetch(`${serviceUrl}/v1/results?host_user_ref=${encodeURIComponent(member)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${secretKey}` },
    });
    if (answer.status !== 200) return void res.status(502).json({ error: 'the scan service refused', status: answer.status });
    const { deleted } = (await answer.json()) as { host_user_ref: string; deleted: number };
    await store.deleteResults(member);
    res.status(200).json({ member, deleted_at_service: deleted });
  });

  // Express 5 hands a rejected handler's error here: any non-2xx makes the service retry later (WH-7).
  app.use((_error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: 'internal' });
  });
  return app;
}

export interface MemoryStore extends Store {
  completedScans: Map<string, CompletedScan>;
  results: Map<string, Array<{ scanId: string; result: unknown }>>;
}

/** The store of this example: memory. Yours is a database. */
export function memoryStore(): MemoryStore {
  const completedScans = new Map<string, CompletedScan>();
  const results = new Map<string, Array<{ scanId: string; result: unknown }>>();
  return {
    completedScans,
    results,
    saveCompletedScan: (scanId: string, scan: CompletedScan) => void completedScans.set(scanId, scan),
    saveResult: (member: string, scanId: string, result: unknown) =>
      void results.set(member, [...(results.get(member) ?? []), { scanId, result }]),
    deleteResults: (member: string) => void results.delete(member),
  };
}
