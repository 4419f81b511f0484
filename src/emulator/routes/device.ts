import { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** The device routes (issue 3): challenge, enrollment, models, model key, mesh fitting, scan events, result upload. */
export function deviceRoutes(ctx: EmulatorContext) {
  void ctx;
  return new Hono<AppEnv>();
}
