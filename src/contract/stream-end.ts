import { z } from 'zod';

/**
 * The last event of a stream the emulator ends itself (`event: end`): serve is stopping
 * (CHOICE-35), or the subscriber did not read and fell behind the bound (CHOICE-37).
 */
export const StreamEndEvent = z
  .object({
    object: z.literal('stream.ended'),
    reason: z.enum(['server_stopping', 'subscriber_too_slow']),
    message: z.string(),
  })
  .meta({ id: 'StreamEnded' });
export type StreamEndEvent = z.infer<typeof StreamEndEvent>;
