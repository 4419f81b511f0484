import { z } from 'zod';
import { listOf } from './list.js';
import { App } from './apps.js';
import { DateTimeInput, DURATION_PATTERN } from './time.js';
import { INTERFACE_VERSION } from './version.js';

/** The emulator's control plane (CHOICE-8), under /_scanctl so it cannot be mistaken for the service's /v1. */
export const CONTROL_PREFIX = '/_scanctl';

export const Env = z.enum(['test', 'live']);

export const EmulatorInfo = z.lazy(() =>
  z
    .object({
      object: z.literal('emulator'),
      version: z.string(),
      interface_version: z.literal(INTERFACE_VERSION),
      now: z.iso.datetime(),
      default_app_id: z.string().nullable(),
      fixtures_path: z.string().nullable(),
      rate_limit_per_second: z.number().int(),
      apps: z.array(z.string()),
    })
    .meta({ id: 'EmulatorInfo' }),
);
export type EmulatorInfo = z.infer<typeof EmulatorInfo>;

/** CHOICE-26: readiness is the database open, the fixtures loaded and deliveries dispatched in real time. */
export const Health = z.lazy(() =>
  z
    .object({
      object: z.literal('health'),
      ready: z.boolean(),
      checks: z.object({
        database: z.boolean().meta({ description: 'The SQLite database is open.' }),
        fixtures: z.boolean().meta({ description: 'The fixtures (or an imported state) are loaded.' }),
        deliveries: z.boolean().meta({ description: 'The webhook dispatcher is sending due deliveries in real time.' }),
      }),
      version: z.string(),
    })
    .meta({ id: 'Health' }),
);
export type Health = z.infer<typeof Health>;

export const ClockState = z.lazy(() =>
  z
    .object({
      object: z.literal('clock'),
      now: z.iso.datetime().meta({ description: "The emulator's time: what every expiry, quota day and delivery retry is measured on." }),
      offset_ms: z.number().meta({
        description:
          '`now` minus real time, in ms (with --frozen-clock, minus the frozen start): what --clock-start and the moves of clock advance and clock set put there. A move only makes it grow.',
      }),
      played: z.number().int().optional().meta({
        description:
          'After clock advance or clock set only: how many due moments (webhook attempts, expiries, other timers) the move played, each at its own time.',
      }),
    })
    .meta({ id: 'ClockState' }),
);
export type ClockState = z.infer<typeof ClockState>;

export const ClockAdvanceRequest = z.lazy(() =>
  z.strictObject({ duration: z.string().max(40).regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 24h or 3d') }).meta({
    id: 'ClockAdvanceRequest',
    description: 'A duration such as 90s, 15m, 24h or 3d, at most 100 years (36525d, CHOICE-54): longer is 400 parameter_invalid.',
  }),
);
export const ClockSetRequest = z.lazy(() => z.strictObject({ time: DateTimeInput }).meta({ id: 'ClockSetRequest' }));

export const ApiKey = z.lazy(() =>
  z
    .object({
      id: z.string(),
      object: z.literal('api_key'),
      env: Env,
      kind: z.enum(['secret', 'publishable']),
      display: z.string(),
      state: z.enum(['active', 'rotating', 'revoked', 'suspended']),
      grace_until: z.iso.datetime().nullable(),
      replaced_by: z.string().nullable(),
      created_at: z.iso.datetime(),
      /** The full secret, only in the answer that issued it (AUTH-11). */
      secret: z.string().optional(),
    })
    .meta({ id: 'ApiKey' }),
);
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.lazy(() => listOf(ApiKey, 'ApiKeyList'));
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const KeyIssueRequest = z.lazy(() => z.strictObject({ env: Env }).meta({ id: 'KeyIssueRequest' }));
export const KeyActionRequest = z.lazy(() =>
  z
    .strictObject({ env: Env.optional(), key_id: z.string().optional() })
    .meta({ id: 'KeyActionRequest', description: 'Names a key by id, or the current secret key of env.' }),
);

export const Account = z.lazy(() =>
  z
    .object({ id: z.string(), object: z.literal('account'), suspended: z.boolean(), suspended_at: z.iso.datetime().nullable() })
    .meta({ id: 'Account' }),
);
export type Account = z.infer<typeof Account>;

export const QuotaRequest = z.lazy(() =>
  z.strictObject({ daily_session_quota: z.number().int().min(0).max(1_000_000_000) }).meta({ id: 'QuotaRequest' }),
);

export const PortalLoginRequest = z.lazy(() => z.strictObject({ account_id: z.string().min(1) }).meta({ id: 'PortalLoginRequest' }));

export const WebhookSecret = z.lazy(() =>
  z
    .object({ object: z.literal('webhook_secret'), app_id: z.string(), webhook_secret: z.string().nullable() })
    .meta({ id: 'WebhookSecret' }),
);

export const AppList = z.lazy(() => listOf(App, 'AppList'));
export const AccountList = z.lazy(() => listOf(Account, 'AccountList'));
export const PortalSession = z.lazy(() =>
  z
    .object({ object: z.literal('portal_session'), account_id: z.string(), expires_at: z.iso.datetime() })
    .meta({ id: 'PortalSession', description: 'The portal cookie itself comes in Set-Cookie (scanctl_portal, HttpOnly).' }),
);

const FixtureKeyPair = z.lazy(() => z.object({ secret: z.string(), publishable: z.string() }).nullable());

export const FixtureKeys = z.lazy(() =>
  z
    .object({
      object: z.literal('fixture_keys'),
      app_id: z.string(),
      fixtures_path: z.string(),
      test: FixtureKeyPair,
      live: FixtureKeyPair,
    })
    .meta({
      id: 'FixtureKeys',
      description:
        "The keys the emulator's fixture file gives the app (in full: they are the developer's own test fixtures), null for an environment it gives none.",
    }),
);
export type FixtureKeys = z.infer<typeof FixtureKeys>;
