import { z } from 'zod';
import { SCAN_OUTCOMES } from './device.js';
import { WaitResult } from './wait.js';

/**
 * A scan the emulator plays itself, through its own device routes, as the simulated SDK plays it
 * (`scanctl scan simulate`): what a test library in any language asks for over HTTP instead of
 * running the CLI. With `wait` it answers once the scan's deliveries are acknowledged (or cannot be).
 */
export const SimulateScanRequest = z.lazy(() =>
  z
    .strictObject({
      host_user_ref: z.string().min(1).max(255).describe("The member's host_user_ref."),
      outcome: z.enum(SCAN_OUTCOMES).optional().describe('How the scan ends (default completed).'),
      wait: z.boolean().optional().describe("Answer once the scan's deliveries are acknowledged, or cannot be (default true)."),
      play_retries: z
        .boolean()
        .optional()
        .describe('With wait: move the virtual clock to each retry when it is due, no further (CHOICE-41; default false).'),
      timeout_ms: z
        .number()
        .int()
        .min(1)
        .max(120_000)
        .optional()
        .describe('With wait: real ms before it ends with reason timeout (default 10000).'),
    })
    .meta({ id: 'SimulateScanRequest' }),
);
export type SimulateScanRequest = z.infer<typeof SimulateScanRequest>;

/** One simulated scan as `scanctl scan simulate --json` prints it (its steps left as they are). */
const SimulatedScan = z.object({
  object: z.literal('simulated_scan'),
  index: z.number().int(),
  host_user_ref: z.string(),
  env: z.enum(['test', 'live']),
  installation_id: z.string(),
  scan_id: z.string().nullable().describe('Null when a refusal stopped it before it was reported.'),
  outcome: z.enum(SCAN_OUTCOMES),
  state: z.enum(['recorded', 'refused']),
  occurred_at: z.string().nullable(),
  billable: z.boolean().nullable(),
  result: z.enum(['stored', 'duplicate', 'refused', 'skipped', 'none']),
  refusal: z.object({ step: z.string(), status: z.number().int(), code: z.string(), message: z.string() }).nullable(),
  steps: z.array(z.object({ step: z.string() }).catchall(z.unknown())).describe('Each step, as `scan simulate --json` prints it.'),
});

export const SimulateScanResult = z.lazy(() =>
  z
    .object({
      object: z.literal('simulated_scan_run'),
      scan: SimulatedScan.describe('The scan, as `scanctl scan simulate --json` prints it.'),
      wait: WaitResult.nullable().describe(
        'With wait: as `scanctl scan simulate --wait --json` ends, its log holding every delivery of the scan with each attempt; null without.',
      ),
    })
    .meta({ id: 'SimulateScanResult' }),
);
export type SimulateScanResult = z.infer<typeof SimulateScanResult>;
