import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorCode } from '../../contract/errors.js';
import { storageApiError } from './storage-errors.js';
import { withStorageLog, type StorageLogger } from '../../store/storage-condition.js';
import { CONNECTION_LIMITS } from './connection-limits.js';
import type { Logger } from '../../util/logger.js';

/**
 * ERR-1 below the router (CHOICE-16): requests Node's HTTP parser or the hono adapter refuse
 * before any route sees them (no Host on HTTP/1.0, a Content-Length that does not match, headers
 * over the limit) are answered with the spec's error body too, never a bare text/plain 400 or an
 * empty 431.
 */
export function createEmulatorHttpServer(listener: RequestListener): Server {
  // Timeouts are checked every second, not every 30 s (CHOICE-39).
  const server = createServer({ connectionsCheckingInterval: CONNECTION_LIMITS.checkEveryMs }, listener);
  answerClientErrors(server);
  return server;
}

/** A request listener whose adapter loads on the first request, or when `warm()` is called. */
export interface EmulatorRequestListener extends RequestListener {
  warm(): Promise<void>;
}

/**
 * The emulator's app as a node:http request listener (exec attaches it to a server it bound
 * earlier). The hono adapter is loaded after the ready line, not before: it loads undici (Node's
 * fetch, Request and Response) at once, about 15 ms, and nothing before the first request needs it.
 * `serve` calls `warm()` as soon as it has printed its ready line; a request that comes first waits for it.
 */
export function emulatorRequestListener(
  fetch: (request: Request) => Response | Promise<Response>,
  hostLogger: Logger,
): EmulatorRequestListener {
  // The emulator's logger carries its storage log already (shared with the app's fallbacks and the dispatcher).
  const logger = withStorageLog(hostLogger);
  // The adapter's listener settles when the answer is written; it handles its own errors.
  type AdapterListener = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  let listener: AdapterListener | null = null;
  let loading: Promise<AdapterListener> | null = null;
  const load = () =>
    (loading ??= import('@hono/node-server').then(({ getRequestListener, RequestError }) => {
      listener = getRequestListener(fetch, {
        // The adapter refuses a request it cannot turn into a URL (no Host, a bad absolute form).
        errorHandler: (error) => {
          const apiError =
            error instanceof RequestError
              ? new ApiError('request_malformed', `The request cannot be read: ${error.message}.`)
              : internalError(error, logger);
          return new Response(JSON.stringify(apiError.toBody()), {
            status: apiError.status,
            headers: { 'content-type': 'application/json' },
          });
        },
      });
      return listener;
    }));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (listener) return void listener(req, res);
    load().then(
      (loaded) => void loaded(req, res),
      // Never a hang: a request the adapter could not load for is answered with the error body.
      (error: unknown) => {
        const apiError = internalError(error, logger);
        const body = JSON.stringify(apiError.toBody());
        res.writeHead(apiError.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      },
    );
  };
  return Object.assign(handle, { warm: () => load().then(() => undefined) });
}

/** An error of the emulator's own, given to the host's logger; the client gets the spec's internal_error body. */
function internalError(error: unknown, logger: StorageLogger): ApiError {
  const storage = storageApiError(error, logger);
  if (storage) return storage;
  logger.error('internal error', error);
  return new ApiError('internal_error', 'The emulator hit an unexpected error; see the serve log.');
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing to answer on a connection the client dropped, or one already answering a request.
  const answer = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answer?.headersSent) {
    socket.destroy();
    return;
  }
  // A request already being answered (a 413 decided from its headers, whose body then stopped short) keeps that answer.
  if (answer) return;
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'The request headers are larger than the server accepts (16 KiB).']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request did not arrive in time.']
        : [
            'request_malformed',
            `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}): check its Content-Length and headers.`,
          ];
  const apiError = new ApiError(code, message);
  const body = JSON.stringify(apiError.toBody());
  socket.end(
    `HTTP/1.1 ${apiError.status} ${REASONS[apiError.status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
