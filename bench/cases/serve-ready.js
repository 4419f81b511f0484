import { interleavedMedians, removeDir, startServe, tempDir, timeProcess } from '../lib.js';

/** From spawning `scanctl serve` to its ready line, each time on a fresh database in a fresh folder. */
async function serveOnce() {
  const dir = tempDir();
  try {
    const serve = await startServe([], { dir });
    await serve.stop();
    return serve.readyMs;
  } finally {
    removeDir(dir);
  }
}

export default {
  id: 'serve-ready',
  title: '`scanctl serve` to its ready line, fresh database',
  baseline: '`node -e 0`',
  target: { ratio: 'max', value: 2.5 },
  async run({ quick }) {
    const runs = quick ? 5 : 15;
    const [subject, baseline] = await interleavedMedians([serveOnce, () => timeProcess(['-e', '0'])], runs, 1);
    return { value: subject, baselineValue: baseline, unit: 'ms', note: `median of ${runs} runs each, interleaved` };
  },
};
