import { BIN, interleavedMedians, timeProcess } from '../lib.js';

export default {
  id: 'cold-start',
  title: '`scanctl --version` cold start',
  baseline: '`node -e 0`',
  target: { ratio: 'max', value: 1.15 },
  async run({ quick }) {
    const runs = quick ? 10 : 30;
    const [subject, baseline] = await interleavedMedians([() => timeProcess([BIN, '--version']), () => timeProcess(['-e', '0'])], runs);
    return { value: subject, baselineValue: baseline, unit: 'ms', note: `median of ${runs} runs each, interleaved` };
  },
};
