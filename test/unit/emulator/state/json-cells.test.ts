import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_COLUMNS } from '../../../../src/store/json-columns.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { enroll, event, mint, MODEL, RESULT, setResultsDelivery, upload } from '../../../helpers/device.js';

/**
 * The JSON columns a state file fills (store/json-columns.ts): each cell is checked against its
 * column's schema at import, so a state the emulator accepted never makes a route answer 5xx later.
 */

type StateFile = { tables: Record<string, Array<Record<string, unknown>>> } & Record<string, unknown>;

/** What a state with every JSON column filled leaves to replay against it. */
interface Replay {
  token: string;
  installation: string;
  scanId: string;
  idempotencyKey: string;
  occurredAt: string;
}

/** A state where every JSON column holds a value: a session, a replayable scan event, a stored result, deliveries and their attempts, a chaos hold. */
async function populated(): Promise<{ emu: TestEmulator; state: StateFile; replay: Replay }> {
  const emu = testEmulator();
  await setResultsDelivery(emu, true, 'http://127.0.0.1:9/hook');
  const token = await mint(emu);
  const installation = await enroll(emu, token);
  const scanId = 'scn_replayed';
  const idempotencyKey = 'idem_replayed';
  const occurredAt = new Date(emu.clock.now()).toISOString();
  expect(
    (
      await event(
        emu,
        token,
        { installation_id: installation, scan_id: scanId, status: 'completed', occurred_at: occurredAt },
        idempotencyKey,
      )
    ).status,
  ).toBe(201);
  // The first attempt (to a closed port) records its headers; then every attempt is held by a chaos delay.
  await emu.advance(1_000);
  const chaos = { seed: 1, delay_ms: 5 * 60_000, delay_probability: 1 };
  expect((await emu.call('PUT', `/_scanctl/apps/${DEMO.appId}/chaos`, { json: chaos })).status).toBe(200);
  expect((await upload(emu, token, scanId, installation)).status).toBe(201);
  await emu.advance(1_000);
  const exported = await emu.app.request('/_scanctl/state?include_secrets=1');
  const state = (await exported.json()) as StateFile;
  // A listener belongs to the run that exported it and is not imported (CHOICE-30), but its cells are still checked.
  state.tables.webhook_listeners = [
    { id: 'wl_1', app_id: DEMO.appId, forward_url: 'http://127.0.0.1:9/fwd', events: '["scan.completed"]', created_at: emu.clock.now() },
  ];
  return { emu, state, replay: { token, installation, scanId, idempotencyKey, occurredAt } };
}

const importState = (emu: TestEmulator, state: StateFile) =>
  emu.call('POST', '/_scanctl/state/import', { body: JSON.stringify(state), headers: { 'content-type': 'application/json' } });

/** Every JSON cell of the file that holds a value: table, row index, column. */
function jsonCells(state: StateFile): Array<[string, number, string]> {
  return Object.entries(JSON_COLUMNS).flatMap(([table, columns]) =>
    (state.tables[table] ?? []).flatMap((row, i) =>
      Object.keys(columns)
        .filter((column) => typeof row[column] === 'string' && row[column] !== '')
        .map((column): [string, number, string] => [table, i, column]),
    ),
  );
}

function withCell(state: StateFile, [table, i, column]: [string, number, string], value: unknown): StateFile {
  const copy = structuredClone(state);
  copy.tables[table]![i]![column] = value;
  return copy;
}

/** The requests that read each JSON column back; none may answer 5xx. */
async function readEverything(emu: TestEmulator, replay: Replay): Promise<Array<{ what: string; status: number; body: unknown }>> {
  const answers: Array<{ what: string; status: number; body: unknown }> = [];
  const note = (what: string, r: { status: number; body: unknown }) => answers.push({ what, status: r.status, body: r.body });
  note('challenge (sessions.scopes)', await emu.call('POST', '/v1/device/challenge', { key: replay.token }));
  note(
    'replayed scan event (idempotency_keys.response)',
    await event(
      emu,
      replay.token,
      {
        installation_id: replay.installation,
        scan_id: replay.scanId,
        status: 'completed',
        occurred_at: replay.occurredAt,
        model_version: MODEL,
      },
      replay.idempotencyKey,
    ),
  );
  note('result re-upload (results.body)', await upload(emu, replay.token, replay.scanId, replay.installation, RESULT));
  const list = await emu.call('GET', '/_scanctl/deliveries?limit=100');
  note('deliveries', list);
  for (const delivery of (list.body?.data ?? []) as Array<{ id: string }>) {
    note('delivery detail (attempts.request_headers, events.payload)', await emu.call('GET', `/_scanctl/deliveries/${delivery.id}`));
  }
  // The dispatcher reads deliveries.chaos_hold when a held attempt comes due.
  await emu.advance(10 * 60_000);
  note('deliveries after the held attempts', await emu.call('GET', '/_scanctl/deliveries?limit=100'));
  note('export', await emu.call('GET', '/_scanctl/state'));
  return answers;
}

describe('state import: JSON cells', () => {
  it("CHOICE-56: a JSON cell that is not JSON is refused at import with 400 naming the table, row and column (the issue's probe: sessions.scopes)", async () => {
    const { emu, state, replay } = await populated();
    const row = state.tables.sessions!.findIndex((s) => s.scopes !== undefined);
    const refused = await importState(emu, withCell(state, ['sessions', row, 'scopes'], 'not json'));
    expect(refused.status).toBe(400);
    const error = expectErrorBody(refused.body);
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: `tables.sessions[${row}].scopes` });
    expect(error.message).toContain(`tables.sessions[${row}].scopes is not JSON`);
    // Nothing changed: the session still works.
    expect((await emu.call('POST', '/v1/device/challenge', { key: replay.token })).status).toBe(201);
  });

  it('CHOICE-56: every JSON column refuses text that is not JSON, and JSON its schema refuses, naming the cell', async () => {
    const { emu, state } = await populated();
    const cells = jsonCells(state);
    const columns = new Set(cells.map(([table, , column]) => `${table}.${column}`));
    // The populated state holds every JSON column the contract lists.
    expect([...columns].sort()).toEqual(
      Object.entries(JSON_COLUMNS)
        .flatMap(([t, cs]) => Object.keys(cs).map((c) => `${t}.${c}`))
        .sort(),
    );
    for (const [table, column] of [...columns].map((c) => c.split('.') as [string, string])) {
      const cell = cells.find(([t, , c]) => t === table && c === column)!;
      for (const bad of ['not json', '{"unexpected":true', '42', '[1,2,{"b":null}]', 7]) {
        const refused = await importState(emu, withCell(state, cell, bad));
        expect(refused.status, `${table}.${column} = ${JSON.stringify(bad)}`).toBe(400);
        expect(expectErrorBody(refused.body).param).toBe(`tables.${table}[${cell[1]}].${column}`);
      }
    }
    // The status a scan event replays is checked as well: the stored answer is a success.
    const keyRow = state.tables.idempotency_keys!.findIndex((k) => k.key === 'idem_replayed');
    for (const bad of [500, '201', 204]) {
      const refused = await importState(emu, withCell(state, ['idempotency_keys', keyRow, 'status'], bad));
      expect(refused.status).toBe(400);
      expect(expectErrorBody(refused.body).param).toBe(`tables.idempotency_keys[${keyRow}].status`);
    }
    // The file as exported imports.
    expect((await importState(emu, state)).status).toBe(200);
  });

  it('ERR-1: after any import the emulator accepts, no route that reads a JSON column answers 5xx', async () => {
    const { emu, state, replay } = await populated();
    const cells = jsonCells(state);
    const jsonText = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('[]', '{}', '[""]', '["scan.create","scan.create"]', '["scan.completed","scan.failed"]', 'null', '""'),
      fc.string({ maxLength: 20 }),
    );
    // Valid cells edited in one place: a field dropped, or a value replaced.
    const edited = (original: string) =>
      fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([value, pick]) => {
        const parsed: unknown = JSON.parse(original);
        if (!parsed || typeof parsed !== 'object') return JSON.stringify(value);
        const keys = Object.keys(parsed);
        if (keys.length === 0) return JSON.stringify(value);
        const key = keys[pick % keys.length]!;
        const copy: Record<string, unknown> = { ...(parsed as Record<string, unknown>) };
        if (pick % 3 === 0) delete copy[key];
        else copy[key] = value;
        return JSON.stringify(copy);
      });
    const mutation = fc.integer({ min: 0, max: cells.length - 1 }).chain((index) => {
      const cell = cells[index]!;
      const original = String(state.tables[cell[0]]![cell[1]]![cell[2]]);
      return fc.tuple(fc.constant(cell), fc.oneof(jsonText, edited(original), fc.constant(original)));
    });
    const keyRow = state.tables.idempotency_keys!.findIndex((k) => k.key === 'idem_replayed');
    const statusCell: [string, number, string] = ['idempotency_keys', keyRow, 'status'];
    const anyMutation = fc.oneof(
      { weight: 5, arbitrary: mutation },
      { weight: 1, arbitrary: fc.tuple(fc.constant(statusCell), fc.oneof(fc.integer({ min: -1, max: 600 }), fc.constantFrom(200, 201))) },
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(anyMutation, async ([cell, value]) => {
        const answer = await importState(emu, withCell(state, cell, value));
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        if (answer.status !== 200) {
          expect(expectErrorBody(answer.body).param).toBe(`tables.${cell[0]}[${cell[1]}].${cell[2]}`);
          return;
        }
        accepted++;
        for (const read of await readEverything(emu, replay)) {
          expect(read.status, `${cell.join('/')}=${value}: ${read.what} ${JSON.stringify(read.body).slice(0, 300)}`).toBeLessThan(500);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 60) },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});
