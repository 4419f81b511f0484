import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { openDatabase, resetDatabase } from '../../../src/store/db.js';
import { refuseWrongVersion } from '../../../src/store/open-checks.js';
import { sha256Hex } from '../../../src/util/crypto.js';
import { completedScan, enroll, event, mint, setResultsDelivery, upload } from '../../helpers/device.js';
import { DEMO, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { sourceFiles, SRC } from '../../helpers/source-files.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Every statement of src/ that returns rows is prepared through rowsOf (src/store/row-statements.ts)
 * with the schema its row type comes from. Here each one runs on a real migrated database file
 * seeded with the default fixtures and a row in every table, and every row it returns is checked
 * against its schema: a renamed column, a column no schema declares, or a declared type SQLite does
 * not return fails the test, naming the statement's line.
 */

/** What the statements made at each `file:line` of src/ returned: how many rows, and what their schema refused. */
const seen = vi.hoisted(() => new Map<string, { rows: number; problems: string[] }>());

vi.mock('../../../src/store/row-statements.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/store/row-statements.js')>();
  /** The line of src/ that prepared the statement: the first frame outside this module and row-statements.ts. */
  const site = (): string => {
    const frame = (new Error().stack ?? '').split('\n').find((line) => line.includes('/src/') && !line.includes('row-statements'));
    const match = /\/src\/(.+?):(\d+):\d+\)?$/.exec(frame ?? '');
    return match ? `${match[1]}:${match[2]}` : `unknown (${frame})`;
  };
  const watched = <S extends { get: (...a: never[]) => unknown; all: (...a: never[]) => unknown[] }>(
    statement: S,
    schema: z.ZodType,
    at: string,
  ): S => {
    const entry = seen.get(at) ?? { rows: 0, problems: [] };
    seen.set(at, entry);
    const check = (row: unknown) => {
      entry.rows += 1;
      const parsed = schema.safeParse(row);
      // A few rows of each statement say enough (a table may hold a thousand).
      if (!parsed.success && entry.problems.length < 3) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`).join('; ');
        entry.problems.push(`${issues} in ${JSON.stringify(row)?.slice(0, 160)}`);
      }
    };
    const { get, all } = statement;
    Object.assign(statement, {
      get: (...params: never[]) => {
        const row = get.apply(statement, params);
        if (row !== undefined) check(row);
        return row;
      },
      all: (...params: never[]) => {
        const rows = all.apply(statement, params);
        rows.forEach(check);
        return rows;
      },
    });
    return statement;
  };
  return {
    ...original,
    rowsOf: (db: Parameters<typeof original.rowsOf>[0], rowSchema: () => z.ZodType) => {
      const made = original.rowsOf(db, rowSchema);
      return {
        prepare: (sql: string) => watched(made.prepare(sql), rowSchema(), site()),
        pluck: (sql: string) => watched(made.pluck(sql), rowSchema(), site()),
      };
    },
  };
});

/**
 * The `file:line` of each statement src/ prepares through rowsOf (`rowsOf(...).prepare(...)`, or a
 * `const` bound to rowsOf(...) then `.prepare`/`.pluck`), and each `.prepare` that names a row type
 * of its own (`db.prepare<Params, Row>`), which must not exist outside row-statements.ts.
 */
function rowStatementSites(): { sites: string[]; typedElsewhere: string[] } {
  const sites: string[] = [];
  const typedElsewhere: string[] = [];
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('prepare') && !text.includes('rowsOf')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const isRowsOf = (node: ts.Node) => ts.isCallExpression(node) && node.expression.getText() === 'rowsOf';
    const bound = new Set<string>();
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && node.initializer && isRowsOf(node.initializer)) bound.add(node.name.getText());
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const { name, expression: receiver } = node.expression;
        const viaRowsOf = isRowsOf(receiver) || (ts.isIdentifier(receiver) && bound.has(receiver.text));
        if ((name.text === 'prepare' || name.text === 'pluck') && viaRowsOf) sites.push(where(name));
        else if (name.text === 'prepare' && (node.typeArguments?.length ?? 0) > 1 && !file.endsWith('row-statements.ts'))
          typedElsewhere.push(where(name));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { sites, typedElsewhere };
}

/** Runs every statement that returns rows on `emu`'s database, each where it returns at least one. */
async function readEverything(emu: TestEmulator, path: string): Promise<void> {
  const { store } = emu;
  // Rows in every table: a session, a scan with its result, deliveries and their attempts (to a closed
  // port), a chaos hold, a listener, a fault, a portal session, a checkpoint.
  await setResultsDelivery(emu, true, 'http://127.0.0.1:9/hook');
  const token = await mint(emu);
  const { installation, scanId, token: scanToken } = await completedScan(emu);
  // A second completed scan of the same member in the month reads what the first counted (usage_members).
  await completedScan(emu);
  expect((await upload(emu, scanToken, scanId, installation)).status).toBe(201);
  await emu.advance(1_000);
  const chaos = { seed: 1, delay_ms: 5 * 60_000, delay_probability: 1 };
  expect((await emu.call('PUT', `/_scanctl/apps/${DEMO.appId}/chaos`, { json: chaos })).status).toBe(200);
  await emu.advance(60_000);
  const now = emu.clock.now();
  store.webhooks.insertListener({
    id: 'lsn_1',
    app_id: DEMO.appId,
    forward_url: 'http://127.0.0.1:9/fwd',
    events: ['scan.completed'],
    created_at: now,
  });
  const fault = { id: 'flt_1', method: 'GET', path: '/v1/nothing', status: 500, code: 'api_error', message: null } as const;
  store.faults.insert({ ...fault, count: 1, remaining: 1, probability: null, seed: 1, matched: 0, injected: 0, created_at: now });
  store.portalSessions.insert({ hash: 'portal_hash', account_id: DEMO.accountId, created_at: 1, expires_at: emu.clock.now() + 1 });
  store.meta.set('row-types', 'x');

  const app = store.apps.get(DEMO.appId)!;
  const key = store.keys.forApp(app.id)[0]!;
  const delivery = store.webhooks.deliveries({ app_id: app.id })[0]!;
  const other = 'app_other';
  store.accounts.upsert({ id: 'acct_other', suspended: false }, 1);
  store.apps.upsert({ ...app, id: other, account_id: 'acct_other' }, 1);
  store.webhooks.insertEvent({ ...store.webhooks.eventById(delivery.event_id)!, id: 'evt_other', app_id: other });
  store.webhooks.insertDelivery({ id: 'dlv_other', event_id: 'evt_other', app_id: other, host_user_ref: 'member_1', origin: 'event' }, 1);

  store.accounts.get(app.account_id);
  store.accounts.all();
  store.apps.all();
  store.keys.byHash(key.hash);
  store.keys.byId(key.id);
  store.chaos.get(app.id);
  store.chaos.deliveryOrdinal(delivery.id);
  store.sessions.byTokenHash(sha256Hex(token));
  store.sessions.countForApp(app.id);
  store.quota.used(app.id, new Date(emu.clock.now()).toISOString().slice(0, 10));
  store.portalSessions.byHash('portal_hash');
  store.meta.get('row-types');
  store.faults.all();
  store.faults.get(store.faults.all()[0]!.id);
  const scan = store.device.scan(app.id, scanId)!;
  store.device.installation(installation);
  store.device.installationsForApp(app.id);
  store.device.listScans(app.id, null, 10);
  store.device.listScans(app.id, scan.host_user_ref, 10);
  store.device.resultStored(app.id, scanId);
  store.device.result(app.id, scanId);
  store.device.usage(app.id, null);
  store.device.challenge(store.db.prepare<[], string>('SELECT hash FROM challenges').pluck().get()!);
  const idemToken = await mint(emu);
  const idemInstallation = await enroll(emu, idemToken);
  const idempotent = await event(
    emu,
    idemToken,
    { installation_id: idemInstallation, scan_id: 'scn_idem', status: 'completed' },
    'idem_row_types',
  );
  expect(idempotent.status).toBeLessThan(300);
  store.device.liveIdempotency(app.id, 'idem_row_types', 0);

  store.webhooks.attemptsOf(delivery.id);
  store.webhooks.duplicateSendsOf(delivery.id);
  store.webhooks.listenerFor(app.id);
  store.webhooks.listeners();
  store.webhooks.listenersOf(app.id);
  store.webhooks.deliveryById(delivery.id);
  store.webhooks.status(delivery.id);
  store.webhooks.nextDueAt();
  store.webhooks.nextDueAt([app.id]);
  store.webhooks.pendingResultsOf(app.id);
  store.deliveryPages.row(delivery.id);
  store.deliveryPages.page({ app_id: app.id, limit: 1 });
  store.deliveryPages.page({ app_id: app.id, limit: 1, before: delivery.id });
  store.deliveryPages.count(app.id);
  store.deliveryPages.count(app.id, delivery.status);
  // Claims and a cancel, rolled back: they would change what the rest reads.
  expect(() =>
    store.db.transaction(() => {
      store.webhooks.claimDue(emu.clock.now() + 3_600_000, 10, [app.id]);
      store.webhooks.claimDue(emu.clock.now() + 3_600_000, 10);
      store.webhooks.cancelForMember(app.id, scan.host_user_ref, emu.clock.now());
      throw new RollBack();
    })(),
  ).toThrow(RollBack);

  // The state's own statements: export (a table of more than one page), import, checkpoints, open checks.
  store.db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001)
    INSERT INTO meta (key, value) SELECT 'row-types-' || i, 'x' FROM n`);
  const exported = await emu.call('GET', '/_scanctl/state?include_secrets=1');
  expect(exported.status).toBe(200);
  const checkpoint = await emu.call('POST', '/_scanctl/state/checkpoints', { json: { name: 'row-types' } });
  expect(checkpoint.status).toBeLessThan(300);
  store.meta.set('row-types', 'changed');
  expect((await emu.call('GET', '/_scanctl/state/checkpoints')).status).toBe(200);
  expect((await emu.call('POST', '/_scanctl/state/checkpoints/row-types/restore')).status).toBeLessThan(300);
  expect((await emu.call('DELETE', '/_scanctl/state/checkpoints/row-types')).status).toBeLessThan(300);
  const dangling = structuredClone(exported.body);
  dangling.tables.sessions[0].app_id = 'app_missing';
  expect((await emu.call('POST', '/_scanctl/state/import', { json: dangling })).status).toBe(400);
  expect(() => refuseWrongVersion(store.db, path, 0)).toThrow();
}

class RollBack extends Error {}

describe('store: the rows of every statement', () => {
  it('no statement names a row type but through rowsOf', () => {
    const { sites, typedElsewhere } = rowStatementSites();
    expect(typedElsewhere).toEqual([]);
    expect(sites.length).toBeGreaterThan(60);
  });

  it('every statement prepared through rowsOf returns rows its schema accepts, on a real database', async () => {
    const path = join(tempDir(), 'scanctl.db');
    const emu = testEmulator({ dbPath: path });
    try {
      await readEverything(emu, path);
    } finally {
      await emu.webhooks.stop();
      emu.store.db.close();
    }
    // serve --reset's list of tables.
    const db = openDatabase(path);
    resetDatabase(db, path);
    db.close();
    const { sites } = rowStatementSites();
    const unread = sites.filter((at) => !(seen.get(at)?.rows ?? 0));
    const refused = [...seen].flatMap(([at, { problems }]) => problems.map((problem) => `${at}: ${problem}`));
    expect(refused).toEqual([]);
    expect(unread, 'statements that returned no row here').toEqual([]);
    expect([...seen.keys()].filter((at) => !sites.includes(at))).toEqual([]);
  });
});
