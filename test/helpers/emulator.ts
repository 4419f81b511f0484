import { mountConsole } from '../../src/console/mount.js';
import { mountSimulateRoute } from '../../src/testkit/simulate-route.js';
import type { Logger } from '../../src/util/logger.js';
import { VirtualClock, frozenBase } from '../../src/clock/clock.js';
import { createEmulator, type Emulator } from '../../src/emulator/create-emulator.js';
import { applyFixtures } from '../../src/emulator/domain/apply-fixtures.js';
import { parseFixtures, readFixtures, type Fixtures } from '../../src/emulator/fixture-file.js';
import { openDatabase } from '../../src/store/db.js';
import { SecretBox } from '../../src/util/crypto.js';
import { randomIds } from '../../src/util/ids.js';
import { fileURLToPath } from 'node:url';

export const FIXTURES_FILE = fileURLToPath(new URL('../../fixtures/default.json', import.meta.url));
export const DEMO = {
  appId: 'app_demo',
  accountId: 'acct_demo',
  testSecret: 'sk_test_demoSecretKey00000000000001',
  testPublishable: 'pk_test_demoPublishableKey000000001',
  liveSecret: 'sk_live_demoSecretKey00000000000001',
  livePublishable: 'pk_live_demoPublishableKey000000001',
  webhookSecret: 'whsec_demoSigningSecret0000000000000001',
  bundleId: 'com.example.scanner',
  teamId: 'A1B2C3D4E5',
} as const;

export interface TestEmulator extends Emulator {
  /** A request through the hono app (no socket), JSON in and out. */
  call(
    method: string,
    path: string,
    options?: { key?: string; json?: unknown; body?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    body: any;
  }>;
  advance(ms: number): Promise<void>;
}

/**
 * An emulator over an in-memory database (or the file `dbPath`) and a frozen virtual clock (2026-11-22T10:00:00Z):
 * time moves only when the test advances it.
 */
export function testEmulator(
  options: { fixtures?: Fixtures | string; startIso?: string; rateLimitPerSecond?: number; logger?: Logger; dbPath?: string } = {},
): TestEmulator {
  const db = openDatabase(options.dbPath ?? ':memory:');
  const clock = new VirtualClock({ base: frozenBase(options.startIso) });
  const emulator = createEmulator({
    db,
    clock,
    ids: randomIds,
    box: SecretBox.random(),
    logger: options.logger,
    mounts: [mountConsole, mountSimulateRoute],
    config: {
      rateLimitPerSecond: options.rateLimitPerSecond ?? 0,
      defaultAppId: DEMO.appId,
      fixturesPath: FIXTURES_FILE,
      version: 'test',
      validateResponses: true,
    },
  });
  const fixtures =
    typeof options.fixtures === 'string' ? parseFixtures(options.fixtures, 'inline') : (options.fixtures ?? readFixtures(FIXTURES_FILE));
  applyFixtures(emulator.store, emulator.ids, emulator.box, clock.now(), fixtures);

  const call: TestEmulator['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await emulator.app.request(path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  const advance = async (ms: number) => {
    await emulator.scheduler.advanceTo(clock.now() + ms);
  };
  return Object.assign(emulator, { call, advance });
}

/** Logs in to the portal and returns the cookie for PATCH /v1/apps/{app_id}. */
export async function portalCookie(emulator: TestEmulator, accountId: string = DEMO.accountId): Promise<string> {
  const response = await emulator.app.request('/_scanctl/portal/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_id: accountId }),
  });
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** Every error answer must be exactly the spec's body (ERR-1). */
export function expectErrorBody(body: any): { type: string; code: string; message: string; param?: string } {
  const keys = Object.keys(body ?? {});
  if (keys.length !== 1 || keys[0] !== 'error') throw new Error(`not the spec's error body: ${JSON.stringify(body)}`);
  const allowed = new Set(['type', 'code', 'message', 'param']);
  for (const key of Object.keys(body.error)) if (!allowed.has(key)) throw new Error(`unexpected error field ${key}`);
  return body.error;
}
