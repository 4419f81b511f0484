import { z } from 'zod';
import { CHOICES } from './choices.js';

export const SCOPES = ['scan.create'] as const;

/** SES-1: the session request body. Unknown fields are refused so a typo never passes silently. */
export const CreateSessionRequest = z
  .strictObject({
    host_user_ref: z.string().min(1).max(CHOICES.hostUserRefMaxLength),
    scopes: z.array(z.enum(SCOPES)).optional(),
  })
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

/** SES-2: 201 with a vst_ token that expires 15 minutes after minting. */
export const SessionResponse = z
  .object({
    session_token: z.string().startsWith('vst_'),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof SessionResponse>;
