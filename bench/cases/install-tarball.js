import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { removeDir, ROOT, tempDir } from '../lib.js';

/**
 * What a user's `npm install` of scanctl costs: the packed tarball installed into a fresh project,
 * as a user would (install scripts on: npm's node-gyp step for better-sqlite3 runs and finds the
 * prebuilt addon), then `npx scanctl --version` from it. npm's own cache is warm (this machine
 * reaches only the registry), so the figure is the install's work, not a download.
 */
function npm(args, cwd) {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-400)}`);
  return result.stdout;
}

export default {
  id: 'install-tarball',
  title: 'Install of the packed tarball into a fresh project (`npm install scanctl-*.tgz`)',
  baseline: 'none (absolute)',
  target: { max: 30, unit: 's' },
  async run({ quick }) {
    const packDir = tempDir('scanctl-bench-pack-');
    try {
      const [{ filename }] = JSON.parse(npm(['pack', '--json', '--pack-destination', packDir], ROOT));
      const tarball = join(packDir, filename);
      const runs = quick ? 1 : 3;
      const seconds = [];
      for (let i = 0; i < runs; i++) {
        const project = tempDir('scanctl-bench-install-');
        try {
          writeFileSync(join(project, 'package.json'), '{ "name": "fresh-project", "private": true }\n');
          const started = performance.now();
          npm(['install', '--no-audit', '--no-fund', '--save-dev', tarball], project);
          seconds.push((performance.now() - started) / 1000);
          execFileSync(join(project, 'node_modules', '.bin', 'scanctl'), ['--version'], { cwd: project });
        } finally {
          removeDir(project);
        }
      }
      const median = [...seconds].sort((a, b) => a - b)[seconds.length >> 1];
      return {
        value: median,
        unit: 's',
        note: `median of ${runs} installs (${seconds.map((s) => s.toFixed(1)).join(', ')} s), npm's cache warm`,
      };
    } finally {
      removeDir(packDir);
    }
  },
};
