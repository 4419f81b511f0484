import { z } from 'zod';

/** The largest seed accepted: seeds are printed and typed back, so they stay short. */
export const MAX_SEED = 2 ** 32 - 1;

/** A seed of the emulator's seeded draws (faults, chaos): the same seed replays the same verdicts. */
export const Seed = z.number().int().min(0).max(MAX_SEED);
export const Probability = z.number().min(0).max(1);
