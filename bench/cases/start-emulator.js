import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { interleavedMedians, median, ROOT, timeProcess } from '../lib.js';

const run = promisify(execFile);

/**
 * In one process (the built package, imported once), `startEmulator()` until its first answered
 * request (POST /v1/sessions, 201), then close: what a test file pays per emulator. The request is
 * sent with node:http (bench/lib.js's `request`): a test process's first fetch() costs ~18 ms of
 * its own (undici's client side), whatever it calls, and that is not the emulator's.
 *
 * And what a fresh test process pays before that: importing the package. `scanctl` is the library's
 * bundle (dist/bundle/index.mjs); the baseline, in the same run and interleaved, imports the same
 * modules one by one as tsc built them (dist/index.js). The bundle earns its place only if it is
 * more than 15% faster.
 */
const SCRIPT = `
import { request } from './bench/lib.js';
const runs = Number(process.argv[1]);
const importing = performance.now();
const { startEmulator } = await import(process.argv[2]);
const importMs = performance.now() - importing;
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
console.log(JSON.stringify({ samples, firstMs, importMs }));
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
    const withImport = { bundle: [], modules: [] };
    const once = async (specifier, cycles) => {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT, String(cycles), specifier], {
        cwd: ROOT,
        timeout: 120_000,
      });
      return JSON.parse(stdout);
    };
    for (let i = 0; i < processes; i++) {
      const result = await once('scanctl', runs);
      firsts.push(result.firstMs);
      samples.push(...result.samples);
      withImport.bundle.push(result.importMs + result.firstMs);
      const modules = await once(pathToFileURL(join(ROOT, 'dist', 'index.js')).href, 0);
      withImport.modules.push(modules.importMs + modules.firstMs);
    }
    const [nodeMs] = await interleavedMedians([() => timeProcess(['-e', '0'])], 10);
    return {
      note: `${processes} processes, each: the package imported (module loading excluded), then ${runs + 1} start-mint-close cycles; the first of each process: ${firsts.map((ms) => ms.toFixed(1)).join(', ')} ms; with the import, bundle: ${withImport.bundle.map((ms) => ms.toFixed(0)).join(', ')} ms, modules one by one: ${withImport.modules.map((ms) => ms.toFixed(0)).join(', ')} ms; the request sent with node:http; \`node -e 0\` in the same run: ${nodeMs.toFixed(1)} ms`,
      rows: [
        {
          label: 'the first `startEmulator()` in a process, to its first 201 (median)',
          value: median(firsts),
          unit: 'ms',
          target: { max: 50, unit: 'ms' },
        },
        { label: 'each later one (median)', value: median(samples), unit: 'ms', target: { max: 50, unit: 'ms' } },
        {
          label: 'a fresh process: the package imported, then its first `startEmulator()` to its first 201 (median)',
          baseline: 'the same with the modules one by one (dist/index.js, as tsc built them), interleaved',
          value: median(withImport.bundle),
          baselineValue: median(withImport.modules),
          unit: 'ms',
          target: { ratio: 'max', value: 0.85 },
        },
      ],
    };
  },
};
