import { z } from 'zod';

/**
 * The last event of a stream the emulator ends itself (`event: close`): serve is stopping
 * (CHOICE-35), or the subscriber did not read and fell behind the bound (CHOICE-37).
 */
export const StreamClosed = z.lazy(() =>
  z
    .object({
      object: z.literal('stream.closed'),
      reason: z.enum(['server_stopping', 'subscriber_too_slow']),
      message: z.string(),
    })
    .meta({ id: 'StreamClosed' }),
);
export type StreamClosed = z.infer<typeof StreamClosed>;
