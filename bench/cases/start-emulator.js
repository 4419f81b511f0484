import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { interleavedMedians, median, ROOT, timeProcess } from '../lib.js';

const run = promisify(execFile);

/**
 * In one process (the built package, imported once), `startEmulator()` until its first answered
 * request (POST /v1/sessions, 201), then close: what a test file pays per emulator.
 */
const SCRIPT = `
import { startEmulator } from 'scanctl';
const runs = Number(process.argv[1]);
const samples = [];
let firstMs = null;
for (let i = 0; i < runs + 1; i++) {
  const started = performance.now();
  const emu = await startEmulator();
  const answer = await fetch(emu.baseUrl + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + emu.secretKey, 'content-type': 'application/json' }, body: '{"host_user_ref":"bench"}' });
  if (answer.status !== 201) throw new Error('mint answered ' + answer.status);
  const ms = performance.now() - started;
  await emu.close();
  if (i === 0) firstMs = ms; else samples.push(ms);
}
console.log(JSON.stringify({ samples, firstMs }));
`;

export default {
  id: 'start-emulator',
  title: 'In-process `startEmulator()` to its first answered request',
  baseline: '`node -e 0` (beside it, not a ratio)',
  target: { max: 50, unit: 'ms' },
  async run({ quick, runs: asked }) {
    const runs = asked ?? (quick ? 10 : 30);
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT, String(runs)], { cwd: ROOT, timeout: 120_000 });
    const { samples, firstMs } = JSON.parse(stdout);
    const [nodeMs] = await interleavedMedians([() => timeProcess(['-e', '0'])], 10);
    const value = median(samples);
    return {
      note: `${runs} start-mint-close cycles in one process after the first; the package imported before the first (module loading excluded); \`node -e 0\` in the same run: ${nodeMs.toFixed(1)} ms`,
      rows: [
        {
          label: 'the first `startEmulator()` in a process, to its first 201',
          value: firstMs,
          unit: 'ms',
          target: { max: 50, unit: 'ms' },
        },
        { label: 'each later one (median)', value, unit: 'ms', target: { max: 50, unit: 'ms' } },
      ],
    };
  },
};
