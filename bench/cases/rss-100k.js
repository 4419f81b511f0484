// TODO(issue 5): needs the webhook engine (issue 4) and the device side (issue 3). Until it is
// written this module reports "not measured yet", never a made-up number.
export default {
  id: 'rss-100k',
  title: 'Resident memory of serve after 100,000 scans',
  baseline: 'none (absolute)',
  target: { max: 150, unit: 'MB' },
  async run() {
    return { notMeasured: 'needs the webhook engine (issue 4) and the device side (issue 3)' };
  },
};
