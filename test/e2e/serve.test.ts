import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';

describe('scanctl serve (built CLI, real socket)', () => {
  let serve: ServeProcess;
  afterAll(async () => {
    await serve?.stop();
  });

  it('prints a JSON ready line first, then the CLI mints against it', async () => {
    serve = await startServe();
    expect(serve.ready).toMatchObject({ event: 'ready', app_id: 'app_demo' });
    expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const minted = await runCli(['session', 'mint', '--user', 'member_1', '--json', '--base-url', serve.baseUrl]);
    expect(minted.stderr).toBe('');
    expect(minted.code).toBe(0);
    expect(JSON.parse(minted.stdout).session_token).toMatch(/^vst_/);
  });
});
