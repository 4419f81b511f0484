import { App } from '../apps.js';
import {
  AccountList,
  Account,
  AppList,
  ClockAdvanceRequest,
  ClockState,
  ClockSetRequest,
  FixtureKeys,
  Health,
  CONTROL_PREFIX,
  EmulatorInfo,
  KeyActionRequest,
  KeyIssueRequest,
  ApiKeyList,
  ApiKey,
  PortalLoginRequest,
  PortalSession,
  QuotaRequest,
  WebhookSecret,
} from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

const P = CONTROL_PREFIX;
const appId = { app_id: 'The app, e.g. app_demo.' };

const KEY_ACTION_DESCRIPTIONS = {
  revoke:
    'Revokes a key at once: a revoked secret key gets 403 key_revoked on POST /v1/sessions (AUTH-5). By key_id, or env for the current secret key.',
  suspend: 'Suspends a key: it gets 403 key_suspended until reinstated (AUTH-6). By key_id, or env for the current secret key.',
  reinstate: "Lifts a key's suspension: it mints again (AUTH-6). By key_id, or env for the current secret key.",
} as const;

const keyActions = (['revoke', 'suspend', 'reinstate'] as const).map((action) =>
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys/${action}`,
    operationId: `${action}Key`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a key (by key_id, or the current secret key of env)`,
    description: KEY_ACTION_DESCRIPTIONS[action],
    rules: action === 'revoke' ? ['AUTH-5'] : ['AUTH-6'],
    pathParams: appId,
    request: { schema: KeyActionRequest, example: { env: 'test' } },
    responses: { 200: { description: 'The key in its new state.', schema: ApiKey } },
    errors: ['resource_missing', 'key_state_conflict'],
  }),
);

const ACCOUNT_ACTION_DESCRIPTIONS = {
  suspend:
    'Suspends the account: every key of each of its apps gets 403 account_suspended until it is reinstated (AUTH-7). Takes no body (CHOICE-53).',
  reinstate: "Lifts the account's suspension: its keys work again (AUTH-7). Takes no body (CHOICE-53).",
} as const;

const accountActions = (['suspend', 'reinstate'] as const).map((action) =>
  control({
    method: 'post',
    path: `${P}/accounts/{account_id}/${action}`,
    operationId: `${action}Account`,
    summary: `${action === 'suspend' ? 'Suspend' : 'Reinstate'} an account`,
    description: ACCOUNT_ACTION_DESCRIPTIONS[action],
    rules: ['AUTH-7'],
    pathParams: { account_id: 'The account, e.g. acct_demo.' },
    responses: { 200: { description: 'The account.', schema: Account } },
    errors: ['resource_missing'],
  }),
);

/** The emulator's own routes (CHOICE-8): the portal's side and the clock, on loopback, no authentication. */
export const controlOperations = byOperationId(
  control({
    method: 'get',
    path: `${P}/info`,
    operationId: 'emulatorInfo',
    summary: 'What this emulator is: version, interface version, clock, default app',
    description:
      "The emulator's identity and state at a glance: its version, the interface version it implements (VER-1), the virtual clock, the default app and the apps it holds.",
    responses: { 200: { description: 'The emulator.', schema: EmulatorInfo } },
  }),
  control({
    method: 'get',
    path: `${P}/health`,
    operationId: 'health',
    summary: 'Whether the emulator is up and ready (CHOICE-26): for health checks and `scanctl wait`',
    description:
      'Cheap: reads no table. Ready means the database is open, the fixtures are loaded and webhook deliveries are dispatched; ' +
      'answered 200 when ready and 503 (same body) while starting or stopping. Never rate limited, faulted or written to the request log.',
    responses: {
      200: {
        description: 'Ready.',
        schema: Health,
        example: { object: 'health', ready: true, checks: { database: true, fixtures: true, deliveries: true }, version: '0.1.0' },
      },
      503: { description: 'Up, but not ready (starting or stopping): the same body with ready false.', schema: Health },
    },
  }),
  control({
    method: 'get',
    path: `${P}/clock`,
    operationId: 'getClock',
    summary: 'The virtual clock',
    description: "The emulator's virtual now and its offset from real time. Every expiry, quota day and retry is read off this clock.",
    responses: { 200: { description: 'The clock.', schema: ClockState } },
  }),
  control({
    method: 'post',
    path: `${P}/clock/advance`,
    operationId: 'advanceClock',
    summary: 'Move the virtual clock forward, playing every due timer at its own virtual time',
    description:
      'Moves the clock forward by a duration (at most 100 years, CHOICE-54). Timers that fall due on the way (delivery retries, expiries) run at their own virtual times, in order; `played` counts them.',
    request: { schema: ClockAdvanceRequest, example: { duration: '15m' } },
    responses: {
      200: {
        description: 'The clock after the move; played counts the timers that ran.',
        schema: ClockState,
        example: { object: 'clock', now: '2026-11-22T10:15:00.000Z', offset_ms: 900000, played: 0 },
      },
    },
  }),
  control({
    method: 'post',
    path: `${P}/clock/set`,
    operationId: 'setClock',
    summary: 'Move the virtual clock forward to a given time',
    description:
      'Moves the clock forward to an RFC 3339 time, playing due timers on the way as advanceClock does. A time before now is 400 clock_backwards: the clock never goes back.',
    request: { schema: ClockSetRequest, example: { time: '2026-12-01T00:00:00Z' } },
    responses: { 200: { description: 'The clock after the move.', schema: ClockState } },
    errors: ['clock_backwards'],
  }),
  control({
    method: 'get',
    path: `${P}/apps`,
    operationId: 'listApps',
    summary: 'Every app',
    description:
      'Every app of every account, with its portal settings (webhook_url, results delivery, quota). Signing secrets are never shown here, only their hint.',
    responses: { 200: { description: 'The apps.', schema: AppList } },
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}`,
    operationId: 'getApp',
    summary: 'One app as the portal shows it',
    description:
      'One app as the portal shows it (CHOICE-6): its bundle and team ids, webhook_url, signing-secret hint, results delivery and daily session quota. Unknown app: 404 resource_missing.',
    pathParams: appId,
    responses: { 200: { description: 'The app.', schema: App } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/quota`,
    operationId: 'setQuota',
    summary: "Set the app's daily session quota (CHOICE-5)",
    description:
      'Sets the daily session quota of the app: the number of mints per UTC day before 429 quota_exceeded. 0 refuses every mint.',
    rules: ['SES-9'],
    pathParams: appId,
    request: { schema: QuotaRequest, example: { daily_session_quota: 5 } },
    responses: { 200: { description: 'The app.', schema: App } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/webhook-secret`,
    operationId: 'revealWebhookSecret',
    summary: "The portal's reveal of the whsec_ signing secret, for the developer's own tools on loopback",
    description:
      "The whsec_ secret in plain text, as the portal reveals it to the app's developer, so local tools can verify signatures (WH-4). Null until a webhook_url was set (APP-2).",
    pathParams: appId,
    responses: { 200: { description: 'The secret, or null when no webhook_url was ever set.', schema: WebhookSecret } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/fixture-keys`,
    operationId: 'getFixtureKeys',
    summary: 'The keys the fixture file gives the app: what commands use when no --key is given',
    description:
      'The secret and publishable keys the loaded fixture file names for the app, by environment: what the CLI uses when no --key is given.',
    pathParams: appId,
    responses: { 200: { description: 'The fixture keys.', schema: FixtureKeys } },
    errors: ['resource_missing', 'parameter_invalid'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/keys`,
    operationId: 'listKeys',
    summary: "The app's keys in their non-secret form",
    description:
      'Every key of the app, secret and publishable, test and live, with its state (active, rotating, revoked, suspended). Keys are stored as hashes and shown only in display form.',
    rules: ['AUTH-11'],
    pathParams: appId,
    responses: { 200: { description: 'The keys.', schema: ApiKeyList } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys`,
    operationId: 'issueKeys',
    summary: 'Issue a key pair for env; the secret is shown once, in this answer',
    description:
      'Issues a secret and a publishable key for the environment. The secret is in this answer only (stored as a hash); an environment that already has active keys is 409 key_exists.',
    rules: ['AUTH-10', 'AUTH-11'],
    pathParams: appId,
    request: { schema: KeyIssueRequest, example: { env: 'test' } },
    responses: { 201: { description: 'The secret and the publishable key, each with its full value (secret).', schema: ApiKeyList } },
    errors: ['resource_missing', 'key_exists', 'live_keys_not_allowed'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys/rotate`,
    operationId: 'rotateKey',
    summary: 'Rotate the secret key of env: the replacement works at once, the old one for 24 hours',
    description:
      'Issues a replacement secret key that works at once; the old one keeps minting until grace_until (24 hours on the virtual clock), then is revoked (AUTH-5).',
    rules: ['AUTH-8', 'AUTH-11'],
    pathParams: appId,
    request: { schema: KeyIssueRequest, example: { env: 'test' } },
    responses: {
      201: { description: 'The replacement (with its secret, shown once) and the old key in its grace period.', schema: ApiKeyList },
    },
    errors: ['resource_missing', 'key_state_conflict'],
  }),
  ...keyActions,
  control({
    method: 'get',
    path: `${P}/accounts`,
    operationId: 'listAccounts',
    summary: 'Every account',
    description: 'Every account, with whether it is suspended and since when (AUTH-7).',
    responses: { 200: { description: 'The accounts.', schema: AccountList } },
  }),
  ...accountActions,
  control({
    method: 'post',
    path: `${P}/portal/login`,
    operationId: 'portalLogin',
    summary: 'Log in to the portal as an account; the cookie comes in Set-Cookie',
    description:
      "Logs in as an account for the portal's routes (CHOICE-6): the scanctl_portal cookie (HttpOnly, SameSite=Strict, 12 hours on the virtual clock) comes in Set-Cookie.",
    rules: ['APP-1'],
    request: { schema: PortalLoginRequest, example: { account_id: 'acct_demo' } },
    responses: {
      200: {
        description: 'Logged in.',
        schema: PortalSession,
        headers: { 'Set-Cookie': 'scanctl_portal=...; Path=/; HttpOnly; SameSite=Strict' },
      },
    },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/openapi.json`,
    operationId: 'openapiDocument',
    summary: 'This document',
    description:
      "The OpenAPI 3.1 document of everything this emulator serves, generated from the same schemas the routes validate with, with the emulator's own address as its server.",
    responses: { 200: { description: 'The OpenAPI 3.1 document, generated from the zod schemas.', contentType: 'application/json' } },
  }),
);
