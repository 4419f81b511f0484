// TODO(issue 5): needs the webhook engine (issue 4) and the device side (issue 3). Until it is
// written this module reports "not measured yet", never a made-up number.
export default {
  id: 'scan-latency',
  title: 'One simulated scan, mint to acknowledged webhook (p50 / p99)',
  baseline: 'none (absolute)',
  target: { max: 20, unit: 'ms' },
  async run() {
    return { notMeasured: 'needs the webhook engine (issue 4) and the device side (issue 3)' };
  },
};
