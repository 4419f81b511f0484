import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../../src/contract/choices.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { cleanupAfterEach, emulatorWithReceiver, recordScan } from '../../../helpers/webhook-setup.js';

const cleanup = cleanupAfterEach();

const exportText = async (emu: TestEmulator) => JSON.stringify(await (await emu.app.request('/_scanctl/state?include_secrets=1')).json());
const mint = (emu: TestEmulator, ref: string) => emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: ref } });
const checkpoint = (emu: TestEmulator, name?: string) =>
  emu.call('POST', '/_scanctl/state/checkpoints', name === undefined ? {} : { json: { name } });
const restore = (emu: TestEmulator, idOrName: string) => emu.call('POST', `/_scanctl/state/checkpoints/${idOrName}/restore`);

describe('CHOICE-45: checkpoints of the whole state', () => {
  it('CHOICE-45: restore puts back every row and the clock offset; the export equals the one taken at the checkpoint', async () => {
    const emu = testEmulator();
    expect((await mint(emu, 'member_1')).status).toBe(201);
    await emu.advance(60_000);
    const before = await exportText(emu);
    const taken = await checkpoint(emu);
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ object: 'checkpoint', name: null, clock_offset_ms: 60_000, replaced: null });
    expect(taken.body.id).toMatch(/^cp_/);

    expect((await mint(emu, 'member_2')).status).toBe(201);
    await emu.call('POST', '/_scanctl/faults', {
      json: { method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', count: 1 },
    });
    await emu.advance(5 * 3_600_000);
    expect(await exportText(emu)).not.toBe(before);

    const restored = await restore(emu, taken.body.id);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ object: 'checkpoint_restore', id: taken.body.id, clock_offset_ms: 60_000 });
    expect(emu.clock.offsetMs).toBe(60_000);
    expect(await exportText(emu)).toBe(before);
    // The fault added after the checkpoint is gone: the next mint is not refused.
    expect((await mint(emu, 'member_3')).status).toBe(201);
    // Restoring again goes back again: the checkpoint stays.
    expect((await restore(emu, taken.body.id)).status).toBe(200);
    expect(await exportText(emu)).toBe(before);
  });

  it('CHOICE-45: restoring another checkpoint than the last one copies every row back; each export matches its own', async () => {
    const emu = testEmulator();
    const exportA = await exportText(emu);
    const a = await checkpoint(emu, 'a');
    await mint(emu, 'member_1');
    await emu.advance(60_000);
    const exportB = await exportText(emu);
    await checkpoint(emu, 'b');
    await mint(emu, 'member_2');
    expect((await restore(emu, a.body.id)).status).toBe(200);
    expect(await exportText(emu)).toBe(exportA);
    expect((await restore(emu, 'b')).status).toBe(200);
    expect(await exportText(emu)).toBe(exportB);
    // Written after a restore, then restored again: only those rows go back, and the state is b's.
    await mint(emu, 'member_3');
    await emu.call('POST', '/_scanctl/state/reset');
    expect((await restore(emu, 'b')).status).toBe(200);
    expect(await exportText(emu)).toBe(exportB);
  });

  it('CHOICE-45: a pending delivery comes back and is retried after a restore; one queued after the checkpoint is never sent', async () => {
    let failing = true;
    const { emu, r } = await emulatorWithReceiver(cleanup, { behaviour: () => (failing ? 500 : 200) });
    recordScan(emu, { scanId: 'scan_before' });
    await emu.advance(0);
    await r.waitFor(1);
    const [pending] = emu.store.webhooks.deliveries({ status: 'pending' });
    expect(pending).toMatchObject({ attempts: 1, last_status: 500 });
    const taken = await checkpoint(emu, 'after-first-failure');

    failing = false;
    await emu.advance(30_000);
    await r.waitFor(2);
    recordScan(emu, { scanId: 'scan_after' });
    expect((await restore(emu, 'after-first-failure')).status).toBe(200);
    expect(taken.body.name).toBe('after-first-failure');

    const deliveries = emu.store.webhooks.deliveries({});
    expect(deliveries.map((d) => [d.scan_id, d.status, d.attempts])).toEqual([['scan_before', 'pending', 1]]);
    const sent = r.received.length;
    await emu.advance(3_600_000);
    await r.waitFor(sent + 1);
    expect(r.received.slice(sent).map((d) => (d.body as { data: { scan_id: string } }).data.scan_id)).toEqual(['scan_before']);
    expect(emu.store.webhooks.deliveries({}).map((d) => [d.scan_id, d.status, d.attempts])).toEqual([['scan_before', 'succeeded', 2]]);
  });

  it('CHOICE-45: an attempt on the wire while a restore runs is not recorded into the restored state', async () => {
    let release: (() => void) | null = null;
    const { emu, r } = await emulatorWithReceiver(cleanup, {
      behaviour: () => new Promise<number>((done) => (release = () => done(200))),
    });
    const taken = await checkpoint(emu);
    recordScan(emu, { scanId: 'scan_1' });
    const advancing = emu.advance(0);
    await r.waitFor(1);
    // The restore waits for the clock move playing the attempt; the move waits for the receiver.
    const restoring = restore(emu, taken.body.id);
    release!();
    await advancing;
    expect((await restoring).status).toBe(200);
    expect(emu.store.webhooks.deliveries({})).toEqual([]);
    expect(emu.store.db.prepare('SELECT count(*) FROM attempts').pluck().get()).toBe(0);
  });

  it('CHOICE-45: a restore that fails part way changes nothing (one transaction) and leaves foreign keys checked', async () => {
    const emu = testEmulator();
    const taken = await checkpoint(emu, 'broken');
    await mint(emu, 'member_1');
    await emu.advance(60_000);
    const before = await exportText(emu);
    // A checkpoint damaged on disk: one of its copies is gone.
    emu.store.db.exec(`DROP TABLE checkpoints."${taken.body.id as string}:sessions"`);
    const failed = await restore(emu, 'broken');
    expect(failed.status).toBe(500);
    expect(await exportText(emu)).toBe(before);
    expect(emu.clock.offsetMs).toBe(60_000);
    expect(emu.store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('CHOICE-45: a restore queued behind a clock advance runs after it, and the advance answers where it moved the clock', async () => {
    const emu = testEmulator();
    const taken = await checkpoint(emu);
    expect(taken.status).toBe(201);
    // Both at once: the restore waits for the advance (between clock moves), then moves the clock back.
    const advancing = emu.call('POST', '/_scanctl/clock/advance', { json: { duration: '2h' } });
    // One turn of the event loop: the advance has read its body and is queued on the scheduler.
    await new Promise((resolve) => setImmediate(resolve));
    const [advanced, restored] = await Promise.all([advancing, restore(emu, taken.body.id)]);
    expect(restored.status).toBe(200);
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ object: 'clock', offset_ms: 7_200_000, now: '2026-11-22T12:00:00.000Z' });
    expect(emu.clock.offsetMs).toBe(0);
  });

  it('CHOICE-46: a name restores too, and a name taken again moves to the new checkpoint', async () => {
    const emu = testEmulator();
    const first = await checkpoint(emu, 'baseline');
    await mint(emu, 'member_1');
    const second = await checkpoint(emu, 'baseline');
    expect(second.body).toMatchObject({ name: 'baseline', replaced: first.body.id });
    const list = await emu.call('GET', '/_scanctl/state/checkpoints');
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([second.body.id]);
    expect((await restore(emu, first.body.id)).status).toBe(404);
    expect((await restore(emu, 'baseline')).body).toMatchObject({ id: second.body.id, name: 'baseline' });
  });

  it('CHOICE-45: restores after every test, then the name taken again over another state: each restore gives its own checkpoint', async () => {
    // A restore keeps its statements per connection: a checkpoint dropped and taken again must not
    // be restored through the statements of the copies it replaced.
    const emu = testEmulator();
    await mint(emu, 'member_0');
    const first = await exportText(emu);
    await checkpoint(emu, 'baseline');
    for (let test = 1; test <= 5; test++) {
      await mint(emu, `member_${test}`);
      expect((await restore(emu, 'baseline')).status).toBe(200);
      expect(await exportText(emu)).toBe(first);
    }
    await mint(emu, 'member_kept');
    const second = await exportText(emu);
    await checkpoint(emu, 'baseline');
    await mint(emu, 'member_after');
    expect((await restore(emu, 'baseline')).status).toBe(200);
    expect(await exportText(emu)).toBe(second);
    expect((await emu.call('DELETE', '/_scanctl/state/checkpoints/baseline')).status).toBe(200);
    await mint(emu, 'member_last');
    await checkpoint(emu, 'baseline');
    const third = await exportText(emu);
    await mint(emu, 'member_gone');
    expect((await restore(emu, 'baseline')).status).toBe(200);
    expect(await exportText(emu)).toBe(third);
  });

  it('CHOICE-45: an unknown checkpoint is 404 resource_missing; a bad name 400; no body is a checkpoint without a name', async () => {
    const emu = testEmulator();
    const unknown = await restore(emu, 'cp_nothing');
    expect(unknown.status).toBe(404);
    expect(expectErrorBody(unknown.body)).toEqual({
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: 'No checkpoint cp_nothing.',
      param: 'checkpoint',
    });
    const bad = await checkpoint(emu, 'no spaces');
    expect(bad.status).toBe(400);
    expect(expectErrorBody(bad.body)).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    const idLike = await checkpoint(emu, 'cp_mine');
    expect(expectErrorBody(idLike.body)).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    const plain = await emu.app.request('/_scanctl/state/checkpoints', { method: 'POST' });
    expect(plain.status).toBe(201);
    const deleted = await emu.call('DELETE', `/_scanctl/state/checkpoints/${((await plain.json()) as { id: string }).id}`);
    expect(deleted.body).toMatchObject({ object: 'checkpoint_delete', name: null });
    expect((await emu.call('GET', '/_scanctl/state/checkpoints')).body.data).toEqual([]);
  });

  it(`CHOICE-45: at most ${CHOICES.maxCheckpoints} checkpoints are kept; one more is 409 checkpoint_limit_reached`, async () => {
    const emu = testEmulator();
    for (let i = 0; i < CHOICES.maxCheckpoints; i++) expect((await checkpoint(emu)).status).toBe(201);
    const refused = await checkpoint(emu);
    expect(refused.status).toBe(409);
    expect(expectErrorBody(refused.body)).toMatchObject({ type: 'invalid_request_error', code: 'checkpoint_limit_reached' });
  });
});
