import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';

describe('CHOICE-45: state checkpoint and state restore (built CLI, real serve over a SQLite file)', () => {
  let serve: ServeProcess | null = null;
  afterAll(async () => {
    await serve?.stop();
  });
  const cli = (args: string[]) => runCli([...args, '--base-url', serve!.baseUrl]);
  const exported = async () => {
    const result = await cli(['state', 'export', '-', '--include-secrets']);
    expect(result.code).toBe(0);
    return result.stdout;
  };

  it('CHOICE-45: checkpoint, mutate through the CLI, restore: the export equals the first; a restart keeps the checkpoint', async () => {
    serve = await startServe();
    const first = await exported();
    const taken = await cli(['state', 'checkpoint', 'baseline', '--json']);
    expect(taken.code).toBe(0);
    const checkpoint = JSON.parse(taken.stdout) as { id: string; name: string };
    expect(checkpoint).toMatchObject({ object: 'checkpoint', name: 'baseline' });
    // The checkpoints file is beside the database, the owner's only.
    expect(statSync(`${serve.db}.checkpoints`).mode & 0o777).toBe(0o600);

    expect((await cli(['session', 'mint', '--user', 'member_after'])).code).toBe(0);
    expect((await cli(['clock', 'advance', '2h'])).code).toBe(0);
    expect(await exported()).not.toBe(first);

    const restored = await cli(['state', 'restore', 'baseline']);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toMatch(new RegExp(`^Restored ${checkpoint.id} "baseline": \\d+ rows; clock offset -?\\d+ ms\\.\\n$`));
    expect(await exported()).toBe(first);

    // After a restart on the same database the checkpoint is still there, and restores by id.
    const { dir, db } = serve;
    await serve.stop();
    serve = await startServe([], { dir, db });
    expect((await cli(['session', 'mint', '--user', 'member_later'])).code).toBe(0);
    const listed = JSON.parse((await cli(['state', 'checkpoints', '--json'])).stdout) as { data: Array<{ id: string }> };
    expect(listed.data.map((c) => c.id)).toEqual([checkpoint.id]);
    expect((await cli(['state', 'restore', checkpoint.id, '--json'])).code).toBe(0);
    expect(await exported()).toBe(first);
  });

  it('CHOICE-45: an unknown checkpoint is one line and exit 3; a bad name is refused before anything is kept', async () => {
    serve ??= await startServe();
    const unknown = await cli(['state', 'restore', 'nothing-here']);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim().split('\n')[0]).toContain('No checkpoint nothing-here.');
    const bad = await cli(['state', 'checkpoint', 'cp_taken']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('must not start with "cp_"');
  });
});
