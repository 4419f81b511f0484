// TODO(issue 5): needs the webhook engine (issue 4) and the device side (issue 3). Until it is
// written this module reports "not measured yet", never a made-up number.
export default {
  id: 'webhook-throughput',
  title: 'Webhook deliveries per second to a local receiver, every attempt recorded',
  baseline: 'raw `http.request`, keep-alive agent, 32 in flight',
  target: { ratio: 'min', value: 0.5 },
  async run() {
    return { notMeasured: 'needs the webhook engine (issue 4) and the device side (issue 3)' };
  },
};
