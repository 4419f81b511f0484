import type { Probe } from '../probe.js';
import { backendProbes } from './backend.js';
import { deviceProbes } from './device.js';
import { errorProbes } from './errors.js';
import { resultProbes } from './results.js';
import { webhookProbes } from './webhooks.js';

export { UNPROBED } from './unprobed.js';

/** Every probe, in the order they run: the clock moves only after the probes that need it still, ERR-1 reads them all. */
export const PROBES: readonly Probe[] = [...backendProbes, ...deviceProbes, ...webhookProbes, ...resultProbes, ...errorProbes];
