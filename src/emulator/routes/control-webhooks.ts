import { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** Control plane for webhooks (issue 4): deliveries, resend, listeners, live stream. */
export function controlWebhookRoutes(ctx: EmulatorContext) {
  void ctx;
  return new Hono<AppEnv>();
}
