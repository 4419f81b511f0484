import { z } from 'zod';
import { CHOICES } from './choices.js';

/**
 * SES-1: the member's reference, the unit billed (BILL-4). A lone surrogate (`\ud800`) is refused
 * rather than stored as U+FFFD, which would bill another string; an empty one is refused (CHOICE-20).
 */
export const HostUserRef = z
  .string()
  .min(1)
  .max(CHOICES.hostUserRefMaxLength)
  .regex(/^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/, 'must be valid Unicode (a lone surrogate such as \\ud800 is not)')
  .describe('The member, as the customer names them: 1 to 255 characters of valid Unicode (no lone surrogates).');

export const SCOPES = ['scan.create'] as const;
export type Scope = (typeof SCOPES)[number];

/** SES-1: the session request body. Unknown fields are refused so a typo never passes silently. */
export const CreateSessionRequest = z.lazy(() =>
  z
    .strictObject({
      host_user_ref: HostUserRef,
      scopes: z.array(z.enum(SCOPES)).optional(),
    })
    .meta({ id: 'CreateSessionRequest' }),
);
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

/** SES-2: 201 with a vst_ token that expires 15 minutes after minting. */
export const SessionResponse = z.lazy(() =>
  z
    .object({
      session_token: z.string().startsWith('vst_'),
      expires_at: z.iso.datetime(),
    })
    .meta({ id: 'SessionResponse' }),
);
export type SessionResponse = z.infer<typeof SessionResponse>;
