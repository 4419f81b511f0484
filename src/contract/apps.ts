import { z } from 'zod';

/** CHOICE-6: PATCH /v1/apps/{app_id} takes either or both settings; null clears webhook_url. */
export const UpdateAppRequest = z.lazy(() =>
  z
    .strictObject({
      webhook_url: z
        .url({ protocol: /^https?$/, error: 'webhook_url must be an http or https URL' })
        .max(2048)
        .nullable()
        .optional(),
      results_delivery_enabled: z.boolean().optional(),
    })
    .meta({ id: 'UpdateAppRequest' }),
);
export type UpdateAppRequest = z.infer<typeof UpdateAppRequest>;

/** CHOICE-6: the app as the portal shows it. webhook_secret appears only in the answer that issued it (APP-2). */
export const App = z.lazy(() =>
  z
    .object({
      id: z.string(),
      object: z.literal('app'),
      account_id: z.string(),
      name: z.string(),
      bundle_id: z.string(),
      team_id: z.string(),
      webhook_url: z.string().nullable(),
      webhook_secret: z.string().startsWith('whsec_').optional(),
      webhook_secret_hint: z.string().nullable(),
      results_delivery_enabled: z.boolean(),
      daily_session_quota: z.number().int(),
      billing_profile: z.boolean(),
      terms_accepted: z.boolean(),
    })
    .meta({ id: 'App' }),
);
export type App = z.infer<typeof App>;
