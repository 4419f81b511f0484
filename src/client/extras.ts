import type { ChaosSetRequest } from '../contract/chaos.js';
import type { FaultCreateRequest } from '../contract/faults.js';
import { OPS } from '../contract/operations/index.js';
import type { LogQuery, RequestLogLine } from '../contract/request-log.js';
import type { StateFile } from '../contract/state.js';
import { ApiClient, type FetchLike } from './api.js';

export type LogQueryParams = Partial<Record<'status' | 'path' | 'method' | 'app' | 'since' | 'n' | 'all', string>>;

/** The emulator's control plane for faults, chaos, state and the request log. */
export class ExtrasClient {
  readonly api: ApiClient;

  constructor(readonly baseUrl: string, fetchImpl?: FetchLike) {
    this.api = new ApiClient(baseUrl, fetchImpl);
  }

  private async body<T>(result: Promise<{ body: T }>): Promise<T> {
    return (await result).body;
  }

  faults = () => this.body(this.api.call(OPS.listFaults));
  addFault = (fault: FaultCreateRequest) => this.body(this.api.call(OPS.addFault, { body: fault }));
  clearFaults = (id?: string) => this.body(id ? this.api.call(OPS.clearFault, { params: { fault_id: id } }) : this.api.call(OPS.clearFaults));

  chaos = (appId: string) => this.body(this.api.call(OPS.getChaos, { params: { app_id: appId } }));
  setChaos = (appId: string, setting: ChaosSetRequest) => this.body(this.api.call(OPS.setChaos, { params: { app_id: appId }, body: setting }));
  chaosOff = (appId: string) => this.body(this.api.call(OPS.clearChaos, { params: { app_id: appId } }));

  exportState = (includeSecrets: boolean) => this.body(this.api.call(OPS.exportState, includeSecrets ? { query: { include_secrets: '1' } } : {}));
  importState = (file: StateFile) => this.body(this.api.call(OPS.importState, { body: file }));
  resetState = () => this.body(this.api.call(OPS.resetState));

  logs = (query: LogQueryParams) => this.body(this.api.call(OPS.listRequestLog, { query: query as LogQuery }));

  /**
   * Follows the live request log: calls onLine for each line, backlog first, until the signal
   * aborts or the emulator goes away.
   */
  async streamLogs(query: LogQueryParams, onLine: (line: RequestLogLine) => void, signal: AbortSignal, onReady?: () => void): Promise<void> {
    await this.api.stream(OPS.streamRequestLog, { query: query as LogQuery, signal }, (event) => {
      if (event.event === 'ready') onReady?.();
      else if (event.event === 'request') onLine(event.data as RequestLogLine);
    });
  }
}
