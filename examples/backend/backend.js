// @ts-check
// A customer's backend, as a customer would write it: plain node:http, no framework. It mints
// session tokens for its own members, receives the service's signed webhooks, and deletes a
// member's stored results on request. Its tests (backend.test.ts, exec.test.ts) run it against scanctl.
import http from 'node:http';
import { SignatureVerificationError, verifySignature } from 'scanctl/verify';

/**
 * @param {import('./backend.js').BackendOptions} options
 * @returns {Promise<import('./backend.js').Backend>}
 */
export async function startBackend({ serviceUrl, secretKey, webhookSecret, port = 0, store }) {
  /** Service-Event-Id of every event handled: delivery is at-least-once, so each is handled once. */
  const handledEvents = new Set();
  /** The billing record: one entry per completed scan (the webhook is the service's verified record). */
  const completedScans = new Map();
  /** Results delivered for each member (scan.results_available). */
  const results = new Map();
  const state = { completedScans, results, handledEvents, rejected: 0, failing: false };
  /** Where completed scans are written: a database in a real backend; a test injects one that fails. */
  const scans = store ?? { saveCompletedScan: (scanId, scan) => void completedScans.set(scanId, scan) };

  const server = http.createServer((req, res) => {
    route(req, res).catch(() => send(res, 500, { error: 'internal' }));
  });

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function route(req, res) {
    const url = new URL(req.url ?? '/', 'http://backend');
    if (req.method === 'POST' && url.pathname === '/scan-sessions') return mintForMember(req, res);
    if (req.method === 'POST' && url.pathname === '/webhooks') return receiveWebhook(req, res);
    const member = /^\/members\/([^/]+)\/results$/.exec(url.pathname)?.[1];
    if (req.method === 'DELETE' && member) return deleteResults(decodeURIComponent(member), res);
    send(res, 404, { error: 'not_found' });
  }

  /**
   * The app asks for a scan session. The member is whoever the backend's own authentication says
   * (a header stands in for it here), never a value the app sends: it is the billing unit.
   */
  async function mintForMember(/** @type {http.IncomingMessage} */ req, /** @type {http.ServerResponse} */ res) {
    const member = req.headers['x-member-id'];
    if (typeof member !== 'string' || member === '') return send(res, 401, { error: 'sign in first' });
    const answer = await fetch(`${serviceUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ host_user_ref: member }),
    });
    if (answer.status !== 201) return send(res, 502, { error: 'the scan service refused', status: answer.status });
    const { session_token, expires_at } = await answer.json();
    send(res, 201, { session_token, expires_at });
  }

  /** Verifies the signature over the raw bytes before parsing anything, then handles each event once. */
  async function receiveWebhook(/** @type {http.IncomingMessage} */ req, /** @type {http.ServerResponse} */ res) {
    const raw = await readBody(req);
    try {
      verifySignature(raw, header(req, 'service-signature'), webhookSecret);
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      state.rejected += 1;
      return send(res, 400, { error: error.reason });
    }
    // Our own outage (a database down, say): any non-2xx makes the service retry later.
    if (state.failing) return send(res, 503, { error: 'try again later' });
    const eventId = header(req, 'service-event-id');
    if (handledEvents.has(eventId)) return send(res, 200, { duplicate: true });
    const event = JSON.parse(raw.toString('utf8'));
    if (event.type === 'scan.completed') {
      const { scan_id, host_user_ref, occurred_at } = event.data;
      // A store that throws answers 500 (route's catch) and the event stays unhandled: the retry handles it.
      await scans.saveCompletedScan(scan_id, { member: host_user_ref, occurredAt: occurred_at, month: occurred_at.slice(0, 7) });
    }
    if (event.type === 'scan.results_available') {
      const { host_user_ref, scan_id, result } = event.data;
      results.set(host_user_ref, [...(results.get(host_user_ref) ?? []), { scanId: scan_id, result }]);
    }
    handledEvents.add(eventId);
    send(res, 200, { received: true });
  }

  /** A member exercising deletion: the service forgets their results, and so do we. */
  async function deleteResults(/** @type {string} */ member, /** @type {http.ServerResponse} */ res) {
    const answer = await fetch(`${serviceUrl}/v1/results?host_user_ref=${encodeURIComponent(member)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${secretKey}` },
    });
    if (answer.status !== 200) return send(res, 502, { error: 'the scan service refused', status: answer.status });
    const { deleted } = await answer.json();
    results.delete(member);
    send(res, 200, { member, deleted_at_service: deleted });
  }

  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    webhookUrl: `${url}/webhooks`,
    state,
    /** Monthly active scanning members: what the service bills (distinct members per month). */
    billableMembers: (month) => new Set([...completedScans.values()].filter((s) => s.month === month).map((s) => s.member)).size,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/** @param {http.IncomingMessage} req @param {string} name */
function header(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** @param {http.IncomingMessage} req @returns {Promise<Buffer>} */
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** @param {http.ServerResponse} res @param {number} status @param {unknown} body */
function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
