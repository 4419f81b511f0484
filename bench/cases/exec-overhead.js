import { BIN, interleavedMedians, timeProcess } from '../lib.js';

/** The price of `scanctl exec` around a command: an emulator started, the command run, the emulator stopped. */
export default {
  id: 'exec-overhead',
  title: '`scanctl exec -- node -e 0`',
  baseline: '`node -e 0`',
  target: { ratio: 'max', value: 3 },
  async run({ quick, runs: asked }) {
    const runs = asked ?? (quick ? 8 : 20);
    const [subject, baseline] = await interleavedMedians(
      [() => timeProcess([BIN, 'exec', '--', process.execPath, '-e', '0']), () => timeProcess(['-e', '0'])],
      runs,
    );
    return {
      value: subject,
      baselineValue: baseline,
      unit: 'ms',
      note: `median of ${runs} runs each, interleaved; the subject includes its own \`node -e 0\``,
    };
  },
};
