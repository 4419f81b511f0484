import { z } from 'zod';
import { CHOICES } from './choices.js';

/** DEL-1: host_user_ref is required. */
export const DeleteResultsQuery = z
  .strictObject({ host_user_ref: z.string().min(1).max(CHOICES.hostUserRefMaxLength) })
  .meta({ id: 'DeleteResultsQuery' });

/** DEL-2, DEL-3. */
export const DeleteResultsResponse = z
  .object({ host_user_ref: z.string(), deleted: z.number().int().min(0) })
  .meta({ id: 'DeleteResultsResponse' });
export type DeleteResultsResponse = z.infer<typeof DeleteResultsResponse>;
