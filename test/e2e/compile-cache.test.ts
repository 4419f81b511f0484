import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, TEST_EXE } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const BUNDLE = fileURLToPath(new URL('../../dist/bundle', import.meta.url));

/** bin/scanctl.js turns on Node's compile cache in the user's cache folder, never in the installed package. */
// The single executable carries V8's code cache inside instead (test/exe/).
describe.skipIf(TEST_EXE)("Node's compile cache", () => {
  it('is written under $XDG_CACHE_HOME/scanctl/compile-cache, and nothing is written beside the bundle', async () => {
    const cache = tempDir('scanctl-xdg-');
    const before = readdirSync(BUNDLE).sort();
    const result = await runCli(['openapi'], { env: { XDG_CACHE_HOME: cache } });
    expect(result.code, result.stderr).toBe(0);
    const folder = join(cache, 'scanctl', 'compile-cache');
    expect(existsSync(folder)).toBe(true);
    // One folder per Node version and flags, holding the entries.
    expect(readdirSync(folder).length).toBeGreaterThan(0);
    expect(readdirSync(BUNDLE).sort()).toEqual(before);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: no folder is made', async () => {
    const cache = tempDir('scanctl-xdg-off-');
    const result = await runCli(['openapi'], { env: { XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(cache, 'scanctl', 'compile-cache'))).toBe(false);
  });
});
