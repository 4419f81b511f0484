import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPack } from '../helpers/skip-pack.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A clone of this repository as a new user gets it (git clone of the committed tree, origin a local
 * path): `npm install` builds once and leaves `git status` clean, the README's git-dependency
 * lines install scanctl into another project from that clone, and the CI action's `version: source`
 * builds it from that checkout. Slow (three installs);
 * SCANCTL_SKIP_PACK=1 skips it.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = skipPack('clone-install');
const options = { maxBuffer: 32 * 1024 * 1024, timeout: 240_000 };
// prefer-offline: npm takes what its cache holds (the lock pins each checksum) without asking the
// registry about each package again, which took ~3 min an install on a CI-like run.
const env = {
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_prefer_offline: 'true',
};

/** The README's shell lines for a git dependency, as a reader copies them. */
function gitDependencyLines(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const match = /# or as a git dependency[^\n]*\n((?:[^\n`][^\n]*\n)+)/.exec(readme);
  if (!match) throw new Error('README.md has no git dependency lines');
  return match[1]!;
}

describe.skipIf(skip)('a clone of the repository', () => {
  let root = '';
  let clone = '';
  let install = '';

  beforeAll(async () => {
    root = tempDir('scanctl-clone-');
    clone = join(root, 'scanctl');
    await run('git', ['clone', '--quiet', ROOT, clone], options);
    // --foreground-scripts: the lifecycle scripts' own lines, so the builds can be counted.
    const { stdout, stderr } = await run('npm', ['install', '--prefer-offline', '--foreground-scripts'], { cwd: clone, env, ...options });
    install = stdout + stderr;
  }, 300_000);
  // Three installs of every dependency: removed here, without blocking, within a budget for a busy machine
  // (the shared cleanup after the file removes folders synchronously, under the 30 s hook limit).
  afterAll(() => rm(root, { recursive: true, force: true }), 180_000);

  it('npm install builds once (prepare) and leaves git status clean', async () => {
    expect(install.match(/^> scanctl@[\d.]+ build$/gm), install.slice(-2000)).toHaveLength(1);
    expect(existsSync(join(clone, 'dist', 'cli', 'main.js'))).toBe(true);
    const { stdout } = await run('git', ['status', '--porcelain'], { cwd: clone });
    expect(stdout).toBe('');
  });

  // npm 10 knows no allowScripts: it runs every install script.
  const npmMajor = Number(execFileSync('npm', ['--version'], { encoding: 'utf8', env }).split('.')[0]);
  it.skipIf(npmMajor < 11)(
    "npm 11: the clone's allowScripts leaves no install script 'not yet covered', and better-sqlite3 loads its prebuilt addon unbuilt",
    async () => {
      expect(install).not.toContain('not yet covered by allowScripts');
      // Its no-op node-gyp rebuild (denied) never ran: no build/ beside the prebuilds.
      expect(existsSync(join(clone, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
      const probe = "console.log(new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get().one)";
      const { stdout } = await run(process.execPath, ['-e', probe], { cwd: clone, env, ...options });
      expect(stdout.trim()).toBe('1');
    },
  );

  it("the README's git dependency installs from a clone whose origin is a local path", async () => {
    const project = join(root, 'your-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "your-project", "private": true }\n');
    await run('sh', ['-ec', gitDependencyLines()], { cwd: project, env, ...options });
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.scanctl).toMatch(/^git\+file:\/\//);
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'scanctl'), ['--version'], { env, ...options });
    expect(stdout.trim()).toBe('0.1.0');
  }, 300_000);

  it('the action with version: source builds scanctl from its own checkout and hands the CLI to later steps', async () => {
    const githubEnv = join(root, 'github-env');
    writeFileSync(githubEnv, '');
    await run('sh', [join(clone, '.github', 'action', 'install.sh')], {
      env: { ...env, GITHUB_ACTION_PATH: clone, GITHUB_ENV: githubEnv, INPUT_VERSION: 'source' },
      ...options,
    });
    const cli = /^SCANCTL_CLI=(.+)$/m.exec(readFileSync(githubEnv, 'utf8'))?.[1];
    expect(cli).toBe(`node ${clone}/bin/scanctl.js`);
    const [command, ...args] = cli!.split(' ');
    const { stdout } = await run(command!, [...args, '--version'], { env, ...options });
    expect(stdout.trim()).toBe('0.1.0');
  }, 300_000);
});
