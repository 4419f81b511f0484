import type { ErrorBody } from '../contract/errors.js';

/** The base URL could not be reached at all. */
export class ConnectionError extends Error {
  constructor(readonly url: string, readonly reason: string) {
    super(`could not reach ${url} (${reason})`);
    this.name = 'ConnectionError';
  }
}

/** The service answered with an error: its status and the spec's error body (when it sent one). */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorBody['error'] | null,
    readonly method: string,
    readonly path: string,
    readonly headers: Headers,
  ) {
    super(error ? `${error.type} ${error.code}: ${error.message}` : `HTTP ${status} without the service's error body`);
    this.name = 'ApiCallError';
  }
}

export interface CallOptions {
  headers?: Record<string, string>;
  json?: unknown;
  query?: Record<string, string>;
  /** Abort after this many milliseconds (real time); none by default. */
  timeoutMs?: number;
}

export interface CallResult<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** One HTTP call to the service or the emulator; errors become ApiCallError or ConnectionError. */
export async function call<T>(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      redirect: 'manual',
      signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
    });
  } catch (error) {
    throw new ConnectionError(baseUrl, describeFetchError(error));
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (response.status >= 300) {
    const error = (body as ErrorBody | undefined)?.error;
    const wellFormed = error && typeof error.code === 'string' && typeof error.message === 'string' ? error : null;
    throw new ApiCallError(response.status, wellFormed, method, url.pathname, response.headers);
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
