import Database from 'better-sqlite3';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createEmulator } from '../../../../src/emulator/create-emulator.js';
import { producedInFull } from '../../../../src/emulator/state/export-buffer.js';
import { openDatabase } from '../../../../src/store/db.js';
import { DEMO, expectErrorBody } from '../../../helpers/emulator.js';
import { tempDir } from '../../../helpers/temp.js';

const streamOf = (parts: Array<string | Error>) => {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift();
      if (next === undefined) controller.close();
      else if (next instanceof Error) controller.error(next);
      else controller.enqueue(encoder.encode(next));
    },
  });
};

describe('GET /_scanctl/state produced in full before its 200 (CHOICE-36)', () => {
  it('CHOICE-36: a read that meets a damaged page answers 500 storage_damaged with the error body, never a 200 cut short', async () => {
    const path = join(tempDir('scanctl-export-'), 'emulator.db');
    const seeded = openDatabase(path);
    const emu0 = createEmulator({ db: seeded, config: { defaultAppId: DEMO.appId } });
    seeded.exec('CREATE TABLE IF NOT EXISTS padding (x BLOB)');
    // Many sessions: the sessions table spans pages well past the schema's.
    const insert = seeded.prepare(
      "INSERT INTO sessions (id, token_hash, app_id, key_id, env, host_user_ref, scopes, created_at, expires_at) VALUES (?, ?, 'app_x', 'key_x', 'test', ?, '[]', 0, 0)",
    );
    seeded.pragma('foreign_keys = OFF');
    seeded.transaction(() => {
      for (let i = 0; i < 3000; i += 1) insert.run(`ses_${i}`, `hash_${i}`, `member_${i}_${'x'.repeat(40)}`);
    })();
    void emu0;
    seeded.pragma('wal_checkpoint(TRUNCATE)');
    seeded.close();
    const bytes = readFileSync(path);
    const pages = bytes.length / 4096;
    bytes.fill(0x5a, 4096 * Math.floor(pages - 5), 4096 * Math.floor(pages - 3));
    writeFileSync(path, bytes);

    // Opened without the start-up check, as if the damage came while serving.
    const db = new Database(path);
    const emulator = createEmulator({ db, config: { defaultAppId: DEMO.appId } });
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const consoleError = vi.spyOn(console, 'error');
    const response = await emulator.app.request('/_scanctl/state');
    const body = await response.json();
    logged.mockRestore();
    expect(response.status).toBe(500);
    expect(expectErrorBody(body)).toMatchObject({ type: 'api_error', code: 'storage_damaged' });
    expect(consoleError).not.toHaveBeenCalled();
    db.close();
  });

  it('past its memory bound the export goes to an unlinked temporary file and comes back byte for byte', async () => {
    const dir = tempDir('scanctl-spill-');
    const parts = Array.from({ length: 50 }, (_, i) => `{"part":${i},"pad":"${'p'.repeat(100)}"}`);
    const stream = await producedInFull(streamOf([...parts]), { memoryBytes: 1000, dir });
    expect(readdirSync(dir)).toEqual([]);
    expect(await new Response(stream).text()).toBe(parts.join(''));
    const small = await producedInFull(streamOf(['{"a":', '1}']), { dir });
    expect(await new Response(small).text()).toBe('{"a":1}');
  });

  it('a failure while producing rejects (the route then answers the error body) and leaves no file', async () => {
    const dir = tempDir('scanctl-spill-');
    const failure = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    await expect(producedInFull(streamOf(['x'.repeat(500), 'y'.repeat(800), failure]), { memoryBytes: 1000, dir })).rejects.toBe(failure);
    expect(readdirSync(dir)).toEqual([]);
  });
});
