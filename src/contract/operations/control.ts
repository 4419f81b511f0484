import { AppResponse } from '../apps.js';
import {
  AccountListResponse,
  AccountView,
  AppListResponse,
  ClockAdvanceRequest,
  ClockResponse,
  ClockSetRequest,
  FixtureKeysResponse,
  HealthResponse,
  CONTROL_PREFIX,
  InfoResponse,
  KeyActionRequest,
  KeyIssueRequest,
  KeyListResponse,
  KeyView,
  PortalLoginRequest,
  PortalSessionResponse,
  QuotaRequest,
  WebhookSecretResponse,
} from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

const P = CONTROL_PREFIX;
const appId = { app_id: 'The app, e.g. app_demo.' };

const keyActions = (['revoke', 'suspend', 'reinstate'] as const).map((action) =>
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys/${action}`,
    operationId: `${action}Key`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a key (by key_id, or the current secret key of env)`,
    rules: action === 'revoke' ? ['AUTH-5'] : ['AUTH-6'],
    pathParams: appId,
    request: { schema: KeyActionRequest, example: { env: 'test' } },
    responses: { 200: { description: 'The key in its new state.', schema: KeyView } },
    errors: ['resource_missing', 'key_state_conflict'],
  }),
);

const accountActions = (['suspend', 'reinstate'] as const).map((action) =>
  control({
    method: 'post',
    path: `${P}/accounts/{account_id}/${action}`,
    operationId: `${action}Account`,
    summary: `${action === 'suspend' ? 'Suspend' : 'Reinstate'} an account`,
    rules: ['AUTH-7'],
    pathParams: { account_id: 'The account, e.g. acct_demo.' },
    responses: { 200: { description: 'The account.', schema: AccountView } },
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
    responses: { 200: { description: 'The emulator.', schema: InfoResponse } },
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
        schema: HealthResponse,
        example: { object: 'health', ready: true, checks: { database: true, fixtures: true, deliveries: true }, version: '0.1.0' },
      },
      503: { description: 'Up, but not ready (starting or stopping): the same body with ready false.', schema: HealthResponse },
    },
  }),
  control({
    method: 'get',
    path: `${P}/clock`,
    operationId: 'getClock',
    summary: 'The virtual clock',
    responses: { 200: { description: 'The clock.', schema: ClockResponse } },
  }),
  control({
    method: 'post',
    path: `${P}/clock/advance`,
    operationId: 'advanceClock',
    summary: 'Move the virtual clock forward, playing every due timer at its own virtual time',
    request: { schema: ClockAdvanceRequest, example: { duration: '15m' } },
    responses: {
      200: {
        description: 'The clock after the move; played counts the timers that ran.',
        schema: ClockResponse,
        example: { object: 'clock', now: '2026-11-22T10:15:00.000Z', offset_ms: 900000, played: 0 },
      },
    },
  }),
  control({
    method: 'post',
    path: `${P}/clock/set`,
    operationId: 'setClock',
    summary: 'Move the virtual clock forward to a given time',
    request: { schema: ClockSetRequest, example: { time: '2026-12-01T00:00:00Z' } },
    responses: { 200: { description: 'The clock after the move.', schema: ClockResponse } },
    errors: ['clock_backwards'],
  }),
  control({
    method: 'get',
    path: `${P}/apps`,
    operationId: 'listApps',
    summary: 'Every app',
    responses: { 200: { description: 'The apps.', schema: AppListResponse } },
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}`,
    operationId: 'getApp',
    summary: 'One app as the portal shows it',
    pathParams: appId,
    responses: { 200: { description: 'The app.', schema: AppResponse } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/quota`,
    operationId: 'setQuota',
    summary: "Set the app's daily session quota (CHOICE-5)",
    rules: ['SES-9'],
    pathParams: appId,
    request: { schema: QuotaRequest, example: { daily_session_quota: 5 } },
    responses: { 200: { description: 'The app.', schema: AppResponse } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/webhook-secret`,
    operationId: 'revealWebhookSecret',
    summary: "The portal's reveal of the whsec_ signing secret, for the developer's own tools on loopback",
    pathParams: appId,
    responses: { 200: { description: 'The secret, or null when no webhook_url was ever set.', schema: WebhookSecretResponse } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/fixture-keys`,
    operationId: 'getFixtureKeys',
    summary: 'The keys the fixture file gives the app: what commands use when no --key is given',
    pathParams: appId,
    responses: { 200: { description: 'The fixture keys.', schema: FixtureKeysResponse } },
    errors: ['resource_missing', 'parameter_invalid'],
  }),
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/keys`,
    operationId: 'listKeys',
    summary: "The app's keys in their non-secret form",
    rules: ['AUTH-11'],
    pathParams: appId,
    responses: { 200: { description: 'The keys.', schema: KeyListResponse } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys`,
    operationId: 'issueKeys',
    summary: 'Issue a key pair for env; the secret is shown once, in this answer',
    rules: ['AUTH-10', 'AUTH-11'],
    pathParams: appId,
    request: { schema: KeyIssueRequest, example: { env: 'test' } },
    responses: { 201: { description: 'The secret and the publishable key, each with its full value (secret).', schema: KeyListResponse } },
    errors: ['resource_missing', 'key_exists', 'live_keys_not_allowed'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/keys/rotate`,
    operationId: 'rotateKey',
    summary: 'Rotate the secret key of env: the replacement works at once, the old one for 24 hours',
    rules: ['AUTH-8', 'AUTH-11'],
    pathParams: appId,
    request: { schema: KeyIssueRequest, example: { env: 'test' } },
    responses: {
      201: { description: 'The replacement (with its secret, shown once) and the old key in its grace period.', schema: KeyListResponse },
    },
    errors: ['resource_missing', 'key_state_conflict'],
  }),
  ...keyActions,
  control({
    method: 'get',
    path: `${P}/accounts`,
    operationId: 'listAccounts',
    summary: 'Every account',
    responses: { 200: { description: 'The accounts.', schema: AccountListResponse } },
  }),
  ...accountActions,
  control({
    method: 'post',
    path: `${P}/portal/login`,
    operationId: 'portalLogin',
    summary: 'Log in to the portal as an account; the cookie comes in Set-Cookie',
    rules: ['APP-1'],
    request: { schema: PortalLoginRequest, example: { account_id: 'acct_demo' } },
    responses: {
      200: {
        description: 'Logged in.',
        schema: PortalSessionResponse,
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
    responses: { 200: { description: 'The OpenAPI 3.1 document, generated from the zod schemas.', contentType: 'application/json' } },
  }),
);
