import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** bin/scanctl.js over a package folder that holds the launcher and package.json, and whatever `bundle` says of dist/bundle/. */
function launch(bundle: string | null): { code: number | null; stderr: string; dir: string } {
  const dir = tempDir('scanctl-launcher-');
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  if (bundle !== null) {
    mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'bundle', 'cli.cjs'), bundle);
  }
  const run = spawnSync(process.execPath, [join(dir, 'bin', 'scanctl.js'), 'openapi'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' },
    timeout: 20_000,
  });
  return { code: run.status, stderr: run.stderr, dir };
}

describe('the launcher, when the CLI cannot load', () => {
  it('says the CLI is not built when dist/bundle/cli.cjs is missing', () => {
    const { code, stderr, dir } = launch(null);
    expect(code).toBe(1);
    expect(stderr).toBe(`scanctl: its CLI is not built: run \`npm run build\` in ${dir}\n`);
  });

  it("names the missing module when the bundle is there but one of its requires is not (not 'not built')", () => {
    // require's message for it also names cli.cjs (in its require stack): a reading of the message took it for "not built".
    const { code, stderr } = launch("require('scanctl-no-such-module');\n");
    expect(code).toBe(1);
    expect(stderr).toBe("scanctl: cannot load its CLI: Cannot find module 'scanctl-no-such-module'\n");
  });
});
