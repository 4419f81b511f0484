import { z } from 'zod';
import { HostUserRef } from './sessions.js';

/** DEL-1: host_user_ref is required. */
export const DeleteResultsQuery = z.strictObject({ host_user_ref: HostUserRef }).meta({ id: 'DeleteResultsQuery' });

/** DEL-2, DEL-3. */
export const DeleteResultsResponse = z.lazy(() =>
  z.object({ host_user_ref: z.string(), deleted: z.number().int().min(0) }).meta({ id: 'DeleteResultsResponse' }),
);
export type DeleteResultsResponse = z.infer<typeof DeleteResultsResponse>;
