import { z } from 'zod';
import { MAX_SEED } from '../util/seeded-random.js';

/** A seed of the emulator's seeded draws (faults, chaos): the same seed replays the same verdicts. */
export const Seed = z.number().int().min(0).max(MAX_SEED);
export const Probability = z.number().min(0).max(1);
