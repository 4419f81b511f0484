// TODO(issue 5): needs the webhook engine (issue 4) and the device side (issue 3). Until it is
// written this module reports "not measured yet", never a made-up number.
export default {
  id: 'failing-deliveries',
  title: '1,000 always-failing deliveries x 17 attempts, played by `clock advance 60h`',
  baseline: 'none (absolute)',
  target: { max: 5, unit: 's' },
  async run() {
    return { notMeasured: 'needs the webhook engine (issue 4) and the device side (issue 3)' };
  },
};
