import { CONTROL_PREFIX } from '../contract/control.js';
import type * as Extras from '../contract/extras.js';
import { ApiCallError, call, ConnectionError } from './http.js';

export type LogQueryParams = Partial<Record<'status' | 'path' | 'method' | 'app' | 'since' | 'n' | 'all', string>>;

/** The emulator's control plane of issue 6: faults, chaos, state, request log. */
export class ExtrasClient {
  constructor(readonly baseUrl: string) {}

  private async req<T>(method: string, path: string, options: { json?: unknown; query?: Record<string, string> } = {}): Promise<T> {
    return (await call<T>(this.baseUrl, method, `${CONTROL_PREFIX}${path}`, options)).body;
  }

  faults = () => this.req<Extras.FaultListResponse>('GET', '/faults');
  addFault = (fault: Extras.FaultCreateRequest) => this.req<Extras.FaultView>('POST', '/faults', { json: fault });
  clearFaults = (id?: string) => this.req<Extras.FaultClearResponse>('DELETE', id ? `/faults/${encodeURIComponent(id)}` : '/faults');

  chaos = (appId: string) => this.req<Extras.ChaosView>('GET', `/apps/${encodeURIComponent(appId)}/chaos`);
  setChaos = (appId: string, setting: Extras.ChaosSetRequest) => this.req<Extras.ChaosView>('PUT', `/apps/${encodeURIComponent(appId)}/chaos`, { json: setting });
  chaosOff = (appId: string) => this.req<Extras.ChaosView>('DELETE', `/apps/${encodeURIComponent(appId)}/chaos`);

  exportState = (includeSecrets: boolean) =>
    this.req<Extras.StateFile>('GET', '/state', includeSecrets ? { query: { include_secrets: '1' } } : {});
  importState = (file: unknown) => this.req<Extras.StateImportResponse>('POST', '/state/import', { json: file });
  resetState = () => this.req<Extras.StateResetResponse>('POST', '/state/reset');

  logs = (query: LogQueryParams) => this.req<Extras.LogListResponse>('GET', '/logs', { query: definedOnly(query) });

  /**
   * Follows the live request log (Server-Sent Events): calls onLine for each line, backlog first,
   * until the signal aborts or the emulator goes away.
   */
  async streamLogs(query: LogQueryParams, onLine: (line: Extras.RequestLogLine) => void, signal: AbortSignal, onReady?: () => void): Promise<void> {
    const url = new URL(`${CONTROL_PREFIX}/logs/stream`, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(definedOnly(query))) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
    } catch (error) {
      if (signal.aborted) return;
      throw new ConnectionError(this.baseUrl, (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
    }
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: ApiCallError['error'] } | null;
      throw new ApiCallError(response.status, body?.error ?? null, 'GET', url.pathname, response.headers);
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(message)?.[1];
          const data = message
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (event === 'ready') onReady?.();
          else if (event === 'request' && data) onLine(JSON.parse(data) as Extras.RequestLogLine);
        }
      }
    } catch (error) {
      if (!signal.aborted) throw new ConnectionError(this.baseUrl, `the log stream broke: ${(error as Error).message}`);
    }
  }
}

function definedOnly(query: LogQueryParams): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
