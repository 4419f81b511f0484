// The single executable (npm run build:exe), each figure against a baseline of the same run on the
// same Node: its spawn to the first 201 against a bare hono route; `exec -- true` and a client
// command against `node -e 0`; the npm package's launcher beside it for the same two; RSS of its
// serve under the rss-scans load; the size of its release archive (gzip -9, as build:exe:all makes it).
// Beside them, the floor of each start-up on Node: a bare script doing the least that command does
// (bench/floor-exec.cjs, bench/floor-client.cjs), so that what is scanctl's own is plain.
import { chmodSync, copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { BIN, EXE, interleavedMedians, removeDir, ROOT, startServe, tempDir, timeProcess } from '../lib.js';
import { honoOnce, timeTo201 } from './first-201.js';
import { oneRun } from './rss-scans.js';

const ARCHIVE_MAX_MB = 45;
const RSS_MAX_MB = 150;

/** A start-up row against `node -e 0` of the same run; with a goal, as at most that many times it, else for comparison. */
const vsNode = (label, value, baselineValue, goal) => ({
  label,
  baseline: '`node -e 0`',
  value,
  baselineValue,
  unit: 'ms',
  target: goal === undefined ? null : { ratio: 'max', value: goal },
});

/** The VmRSS row of one serve's rss-scans run, at its last checkpoint. */
const rssRow = (who, run, scans) => ({
  label: `${who}: VmRSS after ${Math.round(scans / 1000)}k scans`,
  value: run.checkpoints.at(-1).rss,
  unit: 'MB',
  target: { max: RSS_MAX_MB, unit: 'MB' },
});

async function exeFirst201() {
  const dir = tempDir();
  try {
    return await timeTo201(
      (port) => ['serve', '--port', String(port), '--db', join(dir, 'emulator.db')],
      () => ({ SCANCTL_BASE_URL: '' }),
      dir,
      EXE,
    );
  } finally {
    removeDir(dir);
  }
}

/**
 * `run(file)` with a fresh copy of the executable, written as install.sh's tar writes it. VmRSS
 * counts the clean pages of the executable that the process maps, and the kernel maps more of them
 * for a file whose pages came into its cache by a read of the whole file (cat, tar, sha256sum; the
 * archive row's tar too): 32 MB more here. A copy measures what an installed file costs.
 */
async function installedCopy(run) {
  const dir = tempDir();
  try {
    const file = join(dir, 'scanctl');
    copyFileSync(EXE, file);
    chmodSync(file, 0o755);
    return await run(file);
  } finally {
    removeDir(dir);
  }
}

async function archiveMb() {
  const dir = tempDir();
  try {
    const file = join(dir, 'scanctl.tar.gz');
    await tar.create({ gzip: { level: 9 }, file, cwd: join(EXE, '..'), portable: true }, ['scanctl']);
    return statSync(file).size / 1e6;
  } finally {
    removeDir(dir);
  }
}

export default {
  id: 'executable',
  title: 'The single executable, dist/exe/scanctl',
  baseline: 'per row, measured in the same run',
  target: { ratio: 'max', value: 2 },
  async run({ quick }) {
    if (!existsSync(EXE)) throw new Error('dist/exe/scanctl is not built: npm run build:exe');
    const runs = quick ? 5 : 15;
    const [first, hono] = await interleavedMedians([exeFirst201, honoOnce], runs, 1);
    // One timed start of `file` (node unless given), in this process's environment plus `env`.
    const start =
      (args, env = {}, file = process.execPath) =>
      () =>
        timeProcess(args, { file, env: { ...process.env, ...env } });
    const node0 = start(['-e', '0']);
    const exe = (args, env) => start(args, env, EXE);
    const npm = (args, env) => start([BIN, ...args], env);
    const floor = (name, env) => start([join(ROOT, 'bench', name)], env);
    const [exeExec, npmExec, floorExec, nodeA] = await interleavedMedians(
      [exe(['exec', '--', 'true']), npm(['exec', '--', 'true']), floor('floor-exec.cjs'), node0],
      runs,
    );
    const serve = await startServe(['--db', ':memory:'], { exe: true });
    let exeClock, npmClock, floorClient, nodeB;
    try {
      const base = { SCANCTL_BASE_URL: serve.baseUrl };
      [exeClock, npmClock, floorClient, nodeB] = await interleavedMedians(
        [exe(['clock', 'show', '--json'], base), npm(['clock', 'show', '--json'], base), floor('floor-client.cjs', base), node0],
        runs,
      );
    } finally {
      await serve.stop();
      removeDir(serve.dir);
    }
    const scans = Number(process.env.SCANCTL_BENCH_RSS_SCANS ?? (quick ? 30_000 : 300_000));
    const rss = await installedCopy((file) => oneRun(scans, { exe: file }));
    const npmRss = await oneRun(scans);
    const anon = (run) => run.checkpoints.at(-1).anon.toFixed(0);
    const note = `median of ${runs} runs each, interleaved; RSS: one serve of the executable (a fresh copy, as installed), then one of the npm package, ${scans.toLocaleString('en')} scans each with their webhooks (${rss.rate} and ${npmRss.rate} scans/s; ready ${rss.startRss.toFixed(0)} and ${npmRss.startRss.toFixed(0)} MB; RssAnon at the end ${anon(rss)} and ${anon(npmRss)} MB)`;
    return {
      note,
      rows: [
        {
          label: 'executable: spawn to the first 201',
          baseline: 'bare hono route',
          value: first,
          baselineValue: hono,
          unit: 'ms',
          target: { ratio: 'max', value: 1.0 },
        },
        vsNode('executable: `exec -- true`', exeExec, nodeA, 2),
        vsNode('npm package: `exec -- true`', npmExec, nodeA),
        vsNode('floor: bare Node doing the least of `exec -- true`', floorExec, nodeA),
        vsNode('executable: `clock show --json` (a running emulator)', exeClock, nodeB, 2),
        vsNode('npm package: `clock show --json`', npmClock, nodeB),
        vsNode('floor: bare Node doing the least of a client command', floorClient, nodeB),
        rssRow('executable', rss, scans),
        rssRow('npm package', npmRss, scans),
        { label: 'linux-x64 archive (tar.gz, gzip -9)', value: await archiveMb(), unit: 'MB', target: { max: ARCHIVE_MAX_MB, unit: 'MB' } },
      ],
    };
  },
};
