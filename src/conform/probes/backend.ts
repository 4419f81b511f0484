import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHOICES } from '../../contract/choices.js';
import { OPS } from '../../contract/operations/index.js';
import type { ProbeKit } from '../kit.js';
import { Divergence, type Probe } from '../probe.js';

/** A key of the right shape that no account holds. */
const unknownKey = (prefix: 'sk_test_' | 'pk_test_') => `${prefix}conform${randomBytes(12).toString('hex')}`;

const TOKEN_LIFETIME_MS = CHOICES.sessionTokenLifetimeMs;

export const backendProbes: readonly Probe[] = [
  {
    rule: 'AUTH-1',
    title: 'the secret key is accepted on POST /v1/sessions and DELETE /v1/results',
    requests: 2,
    async run(kit) {
      await kit.mint('auth1');
      await kit.success(OPS.deleteResults, { bearer: kit.options.key, query: { host_user_ref: kit.member('auth1') } });
      return 'both answered with a success';
    },
  },
  {
    rule: 'SES-2',
    title: 'a mint answers 201 with a vst_ token that expires 15 minutes later',
    requests: 1,
    async run(kit) {
      const minted = await kit.success(OPS.createSession, { bearer: kit.options.key, body: { host_user_ref: kit.member('ses2') } });
      const request = 'POST /v1/sessions';
      if (minted.status !== 201) throw new Divergence(request, '201', String(minted.status));
      if (!minted.body.session_token.startsWith('vst_'))
        throw new Divergence(request, 'a token beginning vst_', minted.body.session_token.slice(0, 4));
      const lifetime = Date.parse(minted.body.expires_at) - (await kit.targetNow(minted.headers));
      // A Date header has whole seconds: a few seconds either way is the same lifetime.
      if (Math.abs(lifetime - TOKEN_LIFETIME_MS) > CHOICES.conformLifetimeToleranceMs)
        throw new Divergence(request, 'expires_at 15 minutes after the answer', `${Math.round(lifetime / 1000)} s after it`);
      return `201, vst_ token, expires ${Math.round(lifetime / 1000)} s after the answer`;
    },
  },
  {
    rule: 'AUTH-2',
    title: 'a publishable key on POST /v1/sessions gets 401 publishable_key_used',
    requests: 1,
    async run(kit) {
      await kit.refusal(
        OPS.createSession,
        { bearer: unknownKey('pk_test_'), body: { host_user_ref: kit.member('auth2') } },
        401,
        'publishable_key_used',
      );
      return '401 publishable_key_used';
    },
  },
  {
    rule: 'AUTH-3',
    title: 'an unknown secret key on POST /v1/sessions gets 401',
    requests: 1,
    async run(kit) {
      await kit.refusal(OPS.createSession, { bearer: unknownKey('sk_test_'), body: { host_user_ref: kit.member('auth3') } }, 401);
      return '401';
    },
  },
  {
    rule: 'CHOICE-1',
    title: 'the code of an unknown or malformed secret key is invalid_api_key',
    requests: 2,
    async run(kit) {
      const body = { host_user_ref: kit.member('choice1') };
      await kit.refusal(OPS.createSession, { bearer: unknownKey('sk_test_'), body }, 401, 'invalid_api_key');
      await kit.refusal(OPS.createSession, { bearer: 'not-a-key', body }, 401, 'invalid_api_key');
      return 'unknown and malformed keys: 401 invalid_api_key';
    },
  },
  {
    rule: 'AUTH-4',
    title: 'DELETE /v1/results with anything but a usable secret key gets 401',
    requests: 2,
    async run(kit) {
      const query = { host_user_ref: kit.member('auth4') };
      await kit.refusal(OPS.deleteResults, { bearer: unknownKey('sk_test_'), query }, 401);
      await kit.refusal(OPS.deleteResults, { query }, 401);
      return 'an unknown key and no key: 401';
    },
  },
  {
    rule: 'AUTH-12',
    title: 'a publishable key cannot call DELETE /v1/results',
    requests: 1,
    async run(kit) {
      await kit.refusal(OPS.deleteResults, { bearer: unknownKey('pk_test_'), query: { host_user_ref: kit.member('auth12') } }, 401);
      return '401';
    },
  },
  {
    rule: 'SES-1',
    title: 'host_user_ref is required and at most 255 characters; scopes holds only scan.create',
    requests: 4,
    async run(kit) {
      const bearer = kit.options.key;
      const long = (n: number) => `${kit.member('ses1')}_${'x'.repeat(n)}`.slice(0, n);
      await kit.malformed(OPS.createSession, bearer, {}, 400);
      await kit.refusal(OPS.createSession, { bearer, body: { host_user_ref: long(256) } }, 400);
      await kit.malformed(OPS.createSession, bearer, { host_user_ref: kit.member('ses1'), scopes: ['scan.delete'] }, 400);
      await kit.success(OPS.createSession, { bearer, body: { host_user_ref: long(255) } }, '201 for 255 characters');
      return 'missing, 256 characters and an unknown scope: 400; 255 characters: 201';
    },
  },
  {
    rule: 'SES-3',
    title: 'Idempotency-Key is not accepted on a mint; a repeated mint yields another token',
    requests: 3,
    async run(kit) {
      const body = { host_user_ref: kit.member('ses3') };
      await kit.refusal(OPS.createSession, { bearer: kit.options.key, body, headers: { 'idempotency-key': kit.id('idem') } }, 400);
      const first = await kit.mint('ses3');
      const second = await kit.mint('ses3');
      if (first === second) throw new Divergence('POST /v1/sessions twice', 'two different tokens', 'the same token');
      return 'Idempotency-Key: 400; two mints, two tokens';
    },
  },
  {
    rule: 'DEL-1',
    title: 'DELETE /v1/results requires host_user_ref',
    requests: 1,
    async run(kit) {
      const error = await kit.refusal(OPS.deleteResults, { bearer: kit.options.key }, 400);
      if (error.param !== 'host_user_ref')
        throw new Divergence('DELETE /v1/results', 'param host_user_ref', `param ${error.param ?? 'none'}`);
      return '400 naming host_user_ref';
    },
  },
  {
    rule: 'DEL-3',
    title: 'deleting what does not exist answers 200 with deleted 0',
    requests: 1,
    async run(kit) {
      const ref = kit.member('del3');
      const deleted = await kit.success(OPS.deleteResults, { bearer: kit.options.key, query: { host_user_ref: ref } });
      if (deleted.body.deleted !== 0 || deleted.body.host_user_ref !== ref)
        throw new Divergence('DELETE /v1/results', `{host_user_ref: "${ref}", deleted: 0}`, JSON.stringify(deleted.body));
      return '200 {host_user_ref, deleted: 0}';
    },
  },
  {
    rule: 'SES-9',
    title: 'an app at its daily session quota gets 429 quota_exceeded',
    requests: 1,
    needs: ['control'],
    provokes: 'quota_exceeded',
    async run(kit) {
      const control = kit.emulator!.control;
      const { appId } = await kit.appIdentity();
      const before = (await control.app(appId)).daily_session_quota;
      kit.onCleanup(() => control.setQuota(appId, before));
      await control.setQuota(appId, 0);
      try {
        await kit.refusal(
          OPS.createSession,
          { bearer: kit.options.key, body: { host_user_ref: kit.member('ses9') } },
          429,
          'quota_exceeded',
        );
      } finally {
        await control.setQuota(appId, before);
      }
      return 'quota 0: 429 quota_exceeded';
    },
  },
  rateLimitProbe(),
];

/**
 * SES-10 and CHOICE-2: a burst of one more request than the documented limit within one second of
 * the target's clock; exactly the last is refused 429 rate_limited. Only against an emulator: on
 * an account it would exceed the limit the rest of the run keeps under.
 */
function rateLimitProbe(): Probe {
  const limit = CHOICES.defaultRateLimitPerSecond;
  return {
    rule: 'SES-10',
    title: `more than ${limit} requests in a second with one key get 429 rate_limited (CHOICE-2)`,
    requests: limit + 1,
    needs: ['control'],
    provokes: 'rate_limited',
    async run(kit) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const seen = await burst(kit, limit + 1);
        if (seen === null) continue;
        const refused = seen.filter((a) => !a.ok);
        const codes = [...new Set(refused.map((a) => (a.ok ? '' : (a.error?.code ?? 'no error body'))))];
        const answered = seen.length - refused.length;
        if (answered !== limit || refused.length !== 1 || codes[0] !== 'rate_limited' || refused[0]!.status !== 429)
          throw new Divergence(
            `${limit + 1} x DELETE /v1/results within one second`,
            `${limit} answered 200, 1 refused 429 rate_limited`,
            `${answered} answered 200, ${refused.length} refused${codes.length ? ` (${refused[0]!.status} ${codes.join(', ')})` : ''}`,
          );
        return `${limit} answered, the next 429 rate_limited`;
      }
      throw new Divergence('a burst within one second', 'a burst that fits in one second', 'three bursts that each crossed a second');
    },
  };
}

/** Sends `count` requests from the start of a second of the target's clock; null when they did not fit in that second. */
async function burst(kit: ProbeKit, count: number) {
  const control = kit.emulator!.control;
  const start = Date.parse((await control.clock()).now);
  await sleep(1000 - (start % 1000) + 20);
  const second = Math.floor(Date.parse((await control.clock()).now) / 1000);
  kit.log.unpaced = true;
  const mark = kit.log.exchanges.length;
  try {
    const query = { host_user_ref: kit.member('ses10') };
    const answers = await Promise.all(
      Array.from({ length: count }, () => kit.answer(OPS.deleteResults, { bearer: kit.options.key, query })),
    );
    const end = Math.floor(Date.parse((await control.clock()).now) / 1000);
    // The key is limited until its window ends: let it pass before the next probe.
    await sleep(1000 - (Date.parse((await control.clock()).now) % 1000) + 20);
    if (end === second) return answers;
    // A burst that crossed a second proves nothing and is tried again: its answers (a 429 or not,
    // by timing) stay out of the snapshot, so two targets' snapshots hold the same burst.
    kit.log.discardSince(mark);
    return null;
  } finally {
    kit.log.unpaced = false;
  }
}
