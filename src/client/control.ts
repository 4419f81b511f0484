import type { z } from 'zod';
import type { UpdateAppRequest } from '../contract/apps.js';
import type { ChaosSetRequest } from '../contract/chaos.js';
import type { FaultCreateRequest } from '../contract/faults.js';
import { areas } from '../contract/operations/by-area.js';
import type { LogQuery, RequestLogLine } from '../contract/request-log.js';
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

  info = async () => this.body(this.api.call((await areas.control()).emulatorInfo, { timeoutMs: 5_000 }));
  /** 200 when ready, 503 (the same body) while starting or stopping: both are answers. */
  health = async (timeoutMs = 5_000) => this.body(this.api.call((await areas.control()).health, { timeoutMs }));
  clock = async () => this.body(this.api.call((await areas.control()).getClock));
  advanceClock = async (duration: string) => this.body(this.api.call((await areas.control()).advanceClock, { body: { duration } }));
  setClock = async (time: string) => this.body(this.api.call((await areas.control()).setClock, { body: { time } }));
  apps = async () => this.body(this.api.call((await areas.control()).listApps));
  app = async (appId: string) => this.body(this.api.call((await areas.control()).getApp, { params: { app_id: appId } }));
  fixtureKeys = async (appId: string) => this.body(this.api.call((await areas.control()).getFixtureKeys, { params: { app_id: appId } }));
  setQuota = async (appId: string, quota: number) =>
    this.body(this.api.call((await areas.control()).setQuota, { params: { app_id: appId }, body: { daily_session_quota: quota } }));
  webhookSecret = async (appId: string) =>
    this.body(this.api.call((await areas.control()).revealWebhookSecret, { params: { app_id: appId } }));
  keys = async (appId: string) => this.body(this.api.call((await areas.control()).listKeys, { params: { app_id: appId } }));
  issueKeys = async (appId: string, env: Env) =>
    this.body(this.api.call((await areas.control()).issueKeys, { params: { app_id: appId }, body: { env } }));
  rotateKey = async (appId: string, env: Env) =>
    this.body(this.api.call((await areas.control()).rotateKey, { params: { app_id: appId }, body: { env } }));
  keyAction = async (appId: string, action: 'revoke' | 'suspend' | 'reinstate', target: { env?: Env; key_id?: string }) => {
    const ops = await areas.control();
    const op = { revoke: ops.revokeKey, suspend: ops.suspendKey, reinstate: ops.reinstateKey }[action];
    return this.body(this.api.call(op, { params: { app_id: appId }, body: target }));
  };
  accounts = async () => this.body(this.api.call((await areas.control()).listAccounts));
  accountAction = async (accountId: string, action: 'suspend' | 'reinstate') => {
    const ops = await areas.control();
    return this.body(
      this.api.call(action === 'suspend' ? ops.suspendAccount : ops.reinstateAccount, { params: { account_id: accountId } }),
    );
  };

  installations = async (appId: string) => this.body(this.api.call((await areas.scans()).listInstallations, { params: { app_id: appId } }));
  installationAction = async (installationId: string, action: 'block' | 'unblock') => {
    const ops = await areas.scans();
    const op = action === 'block' ? ops.blockInstallation : ops.unblockInstallation;
    return this.body(this.api.call(op, { params: { installation_id: installationId } }));
  };
  scans = async (appId: string, query: z.output<typeof ScanListQuery> = {}) =>
    this.body(this.api.call((await areas.scans()).listScans, { params: { app_id: appId }, query }));
  usage = async (query: z.output<typeof UsageQuery> = {}) => this.body(this.api.call((await areas.scans()).getUsage, { query }));

  deliveries = async (query: z.output<typeof WebhookDeliveryListQuery> = {}) =>
    this.body(this.api.call((await areas.webhooks()).listWebhookDeliveries, { query }));
  delivery = async (deliveryId: string) =>
    this.body(this.api.call((await areas.webhooks()).getWebhookDelivery, { params: { delivery_id: deliveryId } }));
  resendEvent = async (eventId: string) =>
    this.body(this.api.call((await areas.webhooks()).resendWebhookEvent, { params: { event_id: eventId } }));
  /** The app's whsec_ signing secret, issued if it has none yet. */
  signingSecret = async (appId: string) =>
    this.body(this.api.call((await areas.webhooks()).revealWebhookSigningSecret, { body: { app_id: appId } }));
  webhookListeners = async () => this.body(this.api.call((await areas.webhooks()).listWebhookListeners));

  /** Logs in to the portal and returns the cookie header value for PATCH /v1/apps/{app_id}. */
  async portalLogin(accountId: string): Promise<string> {
    const result = await this.api.call((await areas.control()).portalLogin, { body: { account_id: accountId } });
    const cookie = result.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error('the portal login answered without a cookie');
    return cookie;
  }

  /** The real portal route, PATCH /v1/apps/{app_id}, with the portal's cookie. */
  updateApp = async (appId: string, patch: UpdateAppRequest, cookie: string) =>
    this.body(this.api.call((await areas.portal()).updateApp, { params: { app_id: appId }, body: patch, cookie }));

  faults = async () => this.body(this.api.call((await areas.faults()).listFaults));
  addFault = async (fault: FaultCreateRequest) => this.body(this.api.call((await areas.faults()).addFault, { body: fault }));
  clearFaults = async (id?: string) => {
    const ops = await areas.faults();
    return this.body(id ? this.api.call(ops.clearFault, { params: { fault_id: id } }) : this.api.call(ops.clearFaults));
  };

  chaos = async (appId: string) => this.body(this.api.call((await areas.chaos()).getChaos, { params: { app_id: appId } }));
  setChaos = async (appId: string, setting: ChaosSetRequest) =>
    this.body(this.api.call((await areas.chaos()).setChaos, { params: { app_id: appId }, body: setting }));
  clearChaos = async (appId: string) => this.body(this.api.call((await areas.chaos()).clearChaos, { params: { app_id: appId } }));

  exportState = async (includeSecrets: boolean) =>
    this.body(this.api.call((await areas.state()).exportState, includeSecrets ? { query: { include_secrets: '1' } } : {}));
  importState = async (file: StateFile) => this.body(this.api.call((await areas.state()).importState, { body: file }));
  resetState = async () => this.body(this.api.call((await areas.state()).resetState));
  checkpoint = async (name?: string) =>
    this.body(this.api.call((await areas.checkpoints()).createCheckpoint, { body: name === undefined ? {} : { name } }));
  checkpoints = async () => this.body(this.api.call((await areas.checkpoints()).listCheckpoints));
  /** By id (cp_...) or name. */
  restoreCheckpoint = async (checkpoint: string) =>
    this.body(this.api.call((await areas.checkpoints()).restoreCheckpoint, { params: { checkpoint } }));
  deleteCheckpoint = async (checkpoint: string) =>
    this.body(this.api.call((await areas.checkpoints()).deleteCheckpoint, { params: { checkpoint } }));

  requestLog = async (query: RequestLogQuery) => this.body(this.api.call((await areas.requestLog()).listRequestLog, { query }));

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
    const op = (await areas.requestLog()).streamRequestLog;
    const { RequestLogLine } = await import('../contract/request-log.js');
    await this.api.stream(op, { query, signal }, (event) => {
      if (event.event === 'ready') onReady?.();
      else if (event.event === 'request') onLine(streamData(op, event, RequestLogLine));
    });
  }
}
