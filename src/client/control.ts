import type { z } from 'zod';
import type { UpdateAppRequest } from '../contract/apps.js';
import type { ChaosSetRequest } from '../contract/chaos.js';
import type { FaultCreateRequest } from '../contract/faults.js';
import { OPS } from '../contract/operations/index.js';
import { RequestLogLine, type LogQuery } from '../contract/request-log.js';
import type { ScanListQuery, UsageQuery } from '../contract/device.js';
import type { StateFile } from '../contract/state.js';
import type { WebhookDeliveryListQuery } from '../contract/webhooks.js';
import { ApiClient, streamData, type FetchLike } from './api.js';

type Env = 'test' | 'live';

/** The request log's filters, as the route's query schema takes them (checked by the emulator). */
export type RequestLogQuery = z.input<typeof LogQuery>;

/**
 * The emulator's control plane: the portal's side, the clock, and what only an emulator has
 * (faults, webhook chaos, state export and import, the request log).
 */
export class ControlClient {
  readonly api: ApiClient;

  constructor(
    readonly baseUrl: string,
    fetchImpl?: FetchLike,
  ) {
    this.api = new ApiClient(baseUrl, fetchImpl);
  }

  private async body<T>(result: Promise<{ body: T }>): Promise<T> {
    return (await result).body;
  }

  info = () => this.body(this.api.call(OPS.emulatorInfo, { timeoutMs: 5_000 }));
  /** 200 when ready, 503 (the same body) while starting or stopping: both are answers. */
  health = (timeoutMs = 5_000) => this.body(this.api.call(OPS.health, { timeoutMs }));
  clock = () => this.body(this.api.call(OPS.getClock));
  advanceClock = (duration: string) => this.body(this.api.call(OPS.advanceClock, { body: { duration } }));
  setClock = (time: string) => this.body(this.api.call(OPS.setClock, { body: { time } }));
  apps = () => this.body(this.api.call(OPS.listApps));
  app = (appId: string) => this.body(this.api.call(OPS.getApp, { params: { app_id: appId } }));
  fixtureKeys = (appId: string) => this.body(this.api.call(OPS.getFixtureKeys, { params: { app_id: appId } }));
  setQuota = (appId: string, quota: number) =>
    this.body(this.api.call(OPS.setQuota, { params: { app_id: appId }, body: { daily_session_quota: quota } }));
  webhookSecret = (appId: string) => this.body(this.api.call(OPS.revealWebhookSecret, { params: { app_id: appId } }));
  keys = (appId: string) => this.body(this.api.call(OPS.listKeys, { params: { app_id: appId } }));
  issueKeys = (appId: string, env: Env) => this.body(this.api.call(OPS.issueKeys, { params: { app_id: appId }, body: { env } }));
  rotateKey = (appId: string, env: Env) => this.body(this.api.call(OPS.rotateKey, { params: { app_id: appId }, body: { env } }));
  keyAction = (appId: string, action: 'revoke' | 'suspend' | 'reinstate', target: { env?: Env; key_id?: string }) =>
    this.body(
      this.api.call({ revoke: OPS.revokeKey, suspend: OPS.suspendKey, reinstate: OPS.reinstateKey }[action], {
        params: { app_id: appId },
        body: target,
      }),
    );
  accounts = () => this.body(this.api.call(OPS.listAccounts));
  accountAction = (accountId: string, action: 'suspend' | 'reinstate') =>
    this.body(this.api.call(action === 'suspend' ? OPS.suspendAccount : OPS.reinstateAccount, { params: { account_id: accountId } }));

  installations = (appId: string) => this.body(this.api.call(OPS.listInstallations, { params: { app_id: appId } }));
  installationAction = (installationId: string, action: 'block' | 'unblock') =>
    this.body(
      this.api.call(action === 'block' ? OPS.blockInstallation : OPS.unblockInstallation, { params: { installation_id: installationId } }),
    );
  scans = (appId: string, query: z.output<typeof ScanListQuery> = {}) =>
    this.body(this.api.call(OPS.listScans, { params: { app_id: appId }, query }));
  usage = (query: z.output<typeof UsageQuery> = {}) => this.body(this.api.call(OPS.getUsage, { query }));

  deliveries = (query: z.output<typeof WebhookDeliveryListQuery> = {}) => this.body(this.api.call(OPS.listWebhookDeliveries, { query }));
  delivery = (deliveryId: string) => this.body(this.api.call(OPS.getWebhookDelivery, { params: { delivery_id: deliveryId } }));
  resendEvent = (eventId: string) => this.body(this.api.call(OPS.resendWebhookEvent, { params: { event_id: eventId } }));
  /** The app's whsec_ signing secret, issued if it has none yet. */
  signingSecret = (appId: string) => this.body(this.api.call(OPS.revealWebhookSigningSecret, { body: { app_id: appId } }));
  webhookListeners = () => this.body(this.api.call(OPS.listWebhookListeners));

  /** Logs in to the portal and returns the cookie header value for PATCH /v1/apps/{app_id}. */
  async portalLogin(accountId: string): Promise<string> {
    const result = await this.api.call(OPS.portalLogin, { body: { account_id: accountId } });
    const cookie = result.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error('the portal login answered without a cookie');
    return cookie;
  }

  /** The real portal route, PATCH /v1/apps/{app_id}, with the portal's cookie. */
  updateApp = (appId: string, patch: UpdateAppRequest, cookie: string) =>
    this.body(this.api.call(OPS.updateApp, { params: { app_id: appId }, body: patch, cookie }));

  faults = () => this.body(this.api.call(OPS.listFaults));
  addFault = (fault: FaultCreateRequest) => this.body(this.api.call(OPS.addFault, { body: fault }));
  clearFaults = (id?: string) =>
    this.body(id ? this.api.call(OPS.clearFault, { params: { fault_id: id } }) : this.api.call(OPS.clearFaults));

  chaos = (appId: string) => this.body(this.api.call(OPS.getChaos, { params: { app_id: appId } }));
  setChaos = (appId: string, setting: ChaosSetRequest) =>
    this.body(this.api.call(OPS.setChaos, { params: { app_id: appId }, body: setting }));
  clearChaos = (appId: string) => this.body(this.api.call(OPS.clearChaos, { params: { app_id: appId } }));

  exportState = (includeSecrets: boolean) =>
    this.body(this.api.call(OPS.exportState, includeSecrets ? { query: { include_secrets: '1' } } : {}));
  importState = (file: StateFile) => this.body(this.api.call(OPS.importState, { body: file }));
  resetState = () => this.body(this.api.call(OPS.resetState));
  checkpoint = (name?: string) => this.body(this.api.call(OPS.createCheckpoint, { body: name === undefined ? {} : { name } }));
  checkpoints = () => this.body(this.api.call(OPS.listCheckpoints));
  /** By id (cp_...) or name. */
  restoreCheckpoint = (checkpoint: string) => this.body(this.api.call(OPS.restoreCheckpoint, { params: { checkpoint } }));
  deleteCheckpoint = (checkpoint: string) => this.body(this.api.call(OPS.deleteCheckpoint, { params: { checkpoint } }));

  requestLog = (query: RequestLogQuery) => this.body(this.api.call(OPS.listRequestLog, { query }));

  /**
   * Follows the live request log: calls onLine for each line, backlog first, until the signal
   * aborts or the emulator goes away.
   */
  async followRequestLog(
    query: RequestLogQuery,
    onLine: (line: RequestLogLine) => void,
    signal: AbortSignal,
    onReady?: () => void,
  ): Promise<void> {
    await this.api.stream(OPS.streamRequestLog, { query, signal }, (event) => {
      if (event.event === 'ready') onReady?.();
      else if (event.event === 'request') onLine(streamData(OPS.streamRequestLog, event, RequestLogLine));
    });
  }
}
