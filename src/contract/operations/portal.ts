import { App, UpdateAppRequest } from '../apps.js';
import { defineOperation } from '../operation.js';

/** The portal's routes the spec names (cookie authentication, CHOICE-6). */
export const portalOperations = {
  updateApp: defineOperation({
    method: 'patch',
    path: '/v1/apps/{app_id}',
    operationId: 'updateApp',
    summary: "Set the app's webhook_url and results_delivery_enabled",
    description:
      'A portal route: it takes the portal session cookie, never a bearer key. The whsec_ signing secret is issued once, ' +
      'the first time a webhook_url is set, and appears only in that answer (webhook_secret).',
    tag: 'portal',
    security: 'portalCookie',
    rules: ['APP-1', 'APP-2', 'APP-4'],
    pathParams: { app_id: 'The app, e.g. app_demo.' },
    request: { schema: UpdateAppRequest, example: { webhook_url: 'http://127.0.0.1:4242/webhooks', results_delivery_enabled: true } },
    responses: {
      200: {
        description: 'The app as the portal shows it; webhook_secret only in the answer that issued it.',
        schema: App,
        example: {
          id: 'app_demo',
          object: 'app',
          account_id: 'acct_demo',
          name: 'Demo',
          bundle_id: 'com.example.scanner',
          team_id: 'A1B2C3D4E5',
          webhook_url: 'http://127.0.0.1:4242/webhooks',
          webhook_secret: 'whsec_Jx2mV8qLr0TzK5cW9bYhN3dPfA7s',
          webhook_secret_hint: 'whsec_...fA7s',
          results_delivery_enabled: true,
          daily_session_quota: 10000,
          billing_profile: true,
          terms_accepted: true,
        },
      },
    },
    errors: ['bearer_not_accepted', 'portal_login_required', 'resource_missing'],
  }),
};
