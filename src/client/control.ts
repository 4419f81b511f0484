import type { AppResponse, UpdateAppRequest } from '../contract/apps.js';
import type { AccountView, ClockResponse, InfoResponse, KeyListResponse, KeyView } from '../contract/control.js';
import { CONTROL_PREFIX } from '../contract/control.js';
import type { DeliveryDetail, DeliveryListResponse, DeliveryView, ListenerView } from '../contract/webhooks.js';
import type { Installation, InstallationList, ScanList, UsageList } from '../contract/device.js';
import { call, type CallOptions } from './http.js';

type Env = 'test' | 'live';

/** The emulator's control plane: the portal's side, the clock, and what only an emulator has. */
export class ControlClient {
  constructor(readonly baseUrl: string) {}

  private async get<T>(path: string, options?: CallOptions): Promise<T> {
    return (await call<T>(this.baseUrl, 'GET', `${CONTROL_PREFIX}${path}`, options)).body;
  }

  private async post<T>(path: string, json: unknown = {}): Promise<T> {
    return (await call<T>(this.baseUrl, 'POST', `${CONTROL_PREFIX}${path}`, { json })).body;
  }

  info = () => this.get<InfoResponse>('/info', { timeoutMs: 5_000 });
  clock = () => this.get<ClockResponse>('/clock');
  advanceClock = (duration: string) => this.post<ClockResponse>('/clock/advance', { duration });
  setClock = (time: string) => this.post<ClockResponse>('/clock/set', { time });
  apps = () => this.get<{ data: AppResponse[] }>('/apps');
  app = (appId: string) => this.get<AppResponse>(`/apps/${encodeURIComponent(appId)}`);
  setQuota = (appId: string, quota: number) => this.post<AppResponse>(`/apps/${encodeURIComponent(appId)}/quota`, { daily_session_quota: quota });
  webhookSecret = (appId: string) =>
    this.get<{ webhook_secret: string | null }>(`/apps/${encodeURIComponent(appId)}/webhook-secret`);
  keys = (appId: string) => this.get<KeyListResponse>(`/apps/${encodeURIComponent(appId)}/keys`);
  issueKeys = (appId: string, env: Env) => this.post<KeyListResponse>(`/apps/${encodeURIComponent(appId)}/keys`, { env });
  rotateKey = (appId: string, env: Env) => this.post<KeyListResponse>(`/apps/${encodeURIComponent(appId)}/keys/rotate`, { env });
  keyAction = (appId: string, action: 'revoke' | 'suspend' | 'reinstate', target: { env?: Env; key_id?: string }) =>
    this.post<KeyView>(`/apps/${encodeURIComponent(appId)}/keys/${action}`, target);
  accounts = () => this.get<{ data: AccountView[] }>('/accounts');
  accountAction = (accountId: string, action: 'suspend' | 'reinstate') =>
    this.post<AccountView>(`/accounts/${encodeURIComponent(accountId)}/${action}`);

  // Devices, scans and usage (issue 3).
  installations = (appId: string) => this.get<InstallationList>(`/apps/${encodeURIComponent(appId)}/installations`);
  installationAction = (installationId: string, action: 'block' | 'unblock') =>
    this.post<Installation>(`/installations/${encodeURIComponent(installationId)}/${action}`);
  scans = (appId: string, query: { host_user_ref?: string; limit?: number } = {}) =>
    this.get<ScanList>(`/apps/${encodeURIComponent(appId)}/scans`, {
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])),
    });
  usage = (query: { app_id?: string; month?: string } = {}) =>
    this.get<UsageList>('/usage', {
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])),
    });

  // Webhooks (issue 4).
  deliveries = (query: { app_id?: string; status?: string; scan_id?: string; event_id?: string; limit?: number } = {}) =>
    this.get<DeliveryListResponse>('/webhooks/deliveries', {
      query: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])),
    });
  delivery = (deliveryId: string) => this.get<DeliveryDetail>(`/webhooks/deliveries/${encodeURIComponent(deliveryId)}`);
  resendEvent = (eventId: string) => this.post<DeliveryView>(`/webhooks/events/${encodeURIComponent(eventId)}/resend`);
  /** The app's whsec_ signing secret, issued if it has none yet. */
  signingSecret = (appId: string) => this.post<{ app_id: string; webhook_secret: string }>('/webhooks/signing-secret', { app_id: appId });
  webhookListeners = () => this.get<{ data: ListenerView[] }>('/webhooks/listeners');

  /** Logs in to the portal and returns the cookie header value for PATCH /v1/apps/{app_id}. */
  async portalLogin(accountId: string): Promise<string> {
    const result = await call(this.baseUrl, 'POST', `${CONTROL_PREFIX}/portal/login`, { json: { account_id: accountId } });
    const cookie = result.headers.get('set-cookie')?.split(';')[0];
    if (!cookie) throw new Error('the portal login answered without a cookie');
    return cookie;
  }

  /** The real portal route, PATCH /v1/apps/{app_id}, with the portal's cookie. */
  async updateApp(appId: string, patch: UpdateAppRequest, cookie: string): Promise<AppResponse> {
    const result = await call<AppResponse>(this.baseUrl, 'PATCH', `/v1/apps/${encodeURIComponent(appId)}`, {
      headers: { cookie },
      json: patch,
    });
    return result.body;
  }
}
