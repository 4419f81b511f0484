import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/** npm as if on Node 20: npm reads the Node version from process.version. */
function npmOnNode20(cwd: string, args: string[]) {
  const node20 = join(cwd, '..', 'node20.cjs');
  writeFileSync(node20, "Object.defineProperty(process, 'version', { value: 'v20.20.2' });\n");
  return spawnSync('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require ${node20}`, npm_config_loglevel: 'error' },
  });
}

// The recipes of other languages carry no npm project (they run the single executable); a Node project
// that installs scanctl, as examples/backend's README says, sets engine-strict.
describe('a project installed on a Node older than scanctl supports stops at once, saying why', () => {
  it('examples/backend: a project that installs scanctl with engine-strict=true in its .npmrc, as its README says, stops with scanctl@ and the range', () => {
    const dir = join(tempDir('scanctl-engines-backend-'), 'project');
    const engines = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: unknown }).engines;
    // scanctl's package.json as far as npm's engine check reads it.
    mkdirSync(join(dir, 'scanctl'), { recursive: true });
    writeFileSync(join(dir, 'scanctl', 'package.json'), JSON.stringify({ name: 'scanctl', version: '0.1.0', engines }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', devDependencies: { scanctl: 'file:scanctl' } }));
    writeFileSync(join(dir, '.npmrc'), 'engine-strict=true\n');
    const npm = npmOnNode20(dir, ['install']);
    expect(npm.status).not.toBe(0);
    expect(npm.stderr).toMatch(/EBADENGINE[\s\S]*scanctl@0\.1\.0[\s\S]*Required: \{"node":"\^22\.14\.0 \|\| >=24"\}/);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });
});
