import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { interleavedMedians, median, ROOT, timeProcess } from '../lib.js';

const run = promisify(execFile);

/**
 * In one process (the built package, imported once), `startEmulator()` until its first answered
 * request (POST /v1/sessions, 201), then close: what a test file pays per emulator. The request is
 * sent with node:http (bench/lib.js's `request`): a test process's first fetch() costs ~18 ms of
 * its own (undici's client side), whatever it calls, and that is not the emulator's.
 */
const SCRIPT = `
import { startEmulator } from 'scanctl';
import { request } from './bench/lib.js';
const runs = Number(process.argv[1]);
const samples = [];
let firstMs = null;
for (let i = 0; i < runs + 1; i++) {
  const started = performance.now();
  const emu = await startEmulator();
  // A connection of its own (agent: false): no keep-alive socket outlives the emulator it was opened to.
  const { status } = await request(emu.baseUrl + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + emu.secretKey }, json: { host_user_ref: 'bench' }, agent: false });
  if (status !== 201) throw new Error('mint answered ' + status);
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
    // The first start is one sample per process: the median over several processes.
    const processes = quick ? 3 : 7;
    const firsts = [];
    const samples = [];
    for (let i = 0; i < processes; i++) {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT, String(runs)], { cwd: ROOT, timeout: 120_000 });
      const result = JSON.parse(stdout);
      firsts.push(result.firstMs);
      samples.push(...result.samples);
    }
    const [nodeMs] = await interleavedMedians([() => timeProcess(['-e', '0'])], 10);
    return {
      note: `${processes} processes, each: the package imported (module loading excluded), then ${runs + 1} start-mint-close cycles; the first of each process: ${firsts.map((ms) => ms.toFixed(1)).join(', ')} ms; the request sent with node:http; \`node -e 0\` in the same run: ${nodeMs.toFixed(1)} ms`,
      rows: [
        {
          label: 'the first `startEmulator()` in a process, to its first 201 (median)',
          value: median(firsts),
          unit: 'ms',
          target: { max: 50, unit: 'ms' },
        },
        { label: 'each later one (median)', value: median(samples), unit: 'ms', target: { max: 50, unit: 'ms' } },
      ],
    };
  },
};
