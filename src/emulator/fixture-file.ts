import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHOICES } from '../contract/choices.js';
import { formatPath } from '../contract/issue-path.js';
import { parseJson } from '../contract/parse-json.js';
import { PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN, WEBHOOK_SECRET_PATTERN } from '../contract/credentials.js';
import { errorMessage, errorCode } from '../util/caught.js';

const KeyPair = (env: 'test' | 'live') =>
  z.strictObject({
    secret: z
      .string()
      .startsWith(`sk_${env}_`, `must be an sk_${env}_ key`)
      .regex(SECRET_KEY_PATTERN, `must be sk_${env}_ followed by 16 to 128 letters and digits`),
    publishable: z
      .string()
      .startsWith(`pk_${env}_`, `must be a pk_${env}_ key`)
      .regex(PUBLISHABLE_KEY_PATTERN, `must be pk_${env}_ followed by 16 to 128 letters and digits`),
  });

const FixtureApp = z
  .strictObject({
    id: z.string().regex(/^app_[A-Za-z0-9_]+$/, 'must look like app_...'),
    account_id: z.string().min(1),
    name: z.string().min(1),
    bundle_id: z.string().min(1),
    team_id: z.string().length(CHOICES.teamIdLength, `must be exactly ${CHOICES.teamIdLength} characters`),
    billing_profile: z.boolean().default(false),
    terms_accepted: z.boolean().default(false),
    webhook_url: z
      .url({ protocol: /^https?$/ })
      .nullable()
      .default(null),
    webhook_secret: z.string().regex(WEBHOOK_SECRET_PATTERN, 'must look like whsec_...').nullable().default(null),
    results_delivery_enabled: z.boolean().default(false),
    daily_session_quota: z.number().int().min(0).default(CHOICES.defaultDailySessionQuota),
    keys: z.strictObject({ test: KeyPair('test').optional(), live: KeyPair('live').optional() }).default({}),
  })
  // AUTH-10: live keys need the owner's billing profile and accepted terms.
  .refine((app) => !app.keys.live || (app.billing_profile && app.terms_accepted), {
    error: 'live keys need billing_profile and terms_accepted to be true (AUTH-10)',
    path: ['keys', 'live'],
  });

export const Fixtures = z
  .strictObject({
    $schema: z.string().optional(),
    accounts: z.array(z.strictObject({ id: z.string().min(1), suspended: z.boolean().default(false) })).default([]),
    apps: z.array(FixtureApp).default([]),
  })
  .superRefine((fixtures, ctx) => {
    const accounts = new Set<string>();
    fixtures.accounts.forEach((account, i) => {
      if (accounts.has(account.id))
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'id'], message: `duplicate account id "${account.id}"` });
      accounts.add(account.id);
    });
    const apps = new Set<string>();
    const keys = new Set<string>();
    fixtures.apps.forEach((app, i) => {
      if (apps.has(app.id)) ctx.addIssue({ code: 'custom', path: ['apps', i, 'id'], message: `duplicate app id "${app.id}"` });
      apps.add(app.id);
      if (!accounts.has(app.account_id)) {
        ctx.addIssue({ code: 'custom', path: ['apps', i, 'account_id'], message: `no account "${app.account_id}" in accounts` });
      }
      for (const env of ['test', 'live'] as const) {
        for (const kind of ['secret', 'publishable'] as const) {
          const key = app.keys[env]?.[kind];
          if (key === undefined) continue;
          // The message never repeats the key itself: it may be a real secret.
          if (keys.has(key))
            ctx.addIssue({ code: 'custom', path: ['apps', i, 'keys', env, kind], message: 'the same key appears twice in the file' });
          keys.add(key);
        }
      }
    });
  });
export type Fixtures = z.infer<typeof Fixtures>;
export type FixtureApp = z.infer<typeof FixtureApp>;

export interface FixtureProblem {
  field: string;
  reason: string;
}

/** A fixture file that cannot be used, with every problem found in it (not just the first). */
export class FixtureError extends Error {
  readonly problems: FixtureProblem[];

  constructor(
    readonly file: string,
    problems: FixtureProblem[],
  ) {
    const say = (p: FixtureProblem) => `${p.field ? `${p.field}: ` : ''}${p.reason}`;
    super(
      problems.length === 1 ? `${file}: ${say(problems[0]!)}` : `${file}: ${problems.length} problems: ${problems.map(say).join('; ')}`,
    );
    this.name = 'FixtureError';
    this.problems = problems;
  }

  get field(): string {
    return this.problems[0]?.field ?? '';
  }

  get reason(): string {
    return this.problems[0]?.reason ?? '';
  }
}

export function parseFixtures(text: string, file: string): Fixtures {
  const parsed = parseJson(Fixtures, text, { jitless: true });
  if (!parsed.ok && parsed.stage === 'json') throw new FixtureError(file, [{ field: '', reason: `not valid JSON (${parsed.message})` }]);
  if (!parsed.ok) {
    const problems = parsed.issues.flatMap((issue) =>
      // An unknown field is named by its own path (apps[0].colour), not its parent's.
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ field: formatPath([...issue.path, key]), reason: 'unknown field' }))
        : [{ field: formatPath(issue.path), reason: issue.message }],
    );
    throw new FixtureError(file, problems);
  }
  return parsed.value;
}

export function readFixtures(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FixtureError(file, [{ field: '', reason: `cannot be read (${errorCode(error) ?? errorMessage(error)})` }]);
  }
  // serve reads its fixture file twice as it starts (to seed, then for the ready line's keys):
  // the same bytes are validated once. A copy each time: callers may change what they get.
  if (lastRead?.file === file && lastRead.text === text) return structuredClone(lastRead.fixtures);
  const fixtures = parseFixtures(text, file);
  lastRead = { file, text, fixtures: structuredClone(fixtures) };
  return fixtures;
}

let lastRead: { file: string; text: string; fixtures: Fixtures } | null = null;
