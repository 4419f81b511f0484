import { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** The OpenAPI document, generated from the zod schemas (issue 5). */
export function openapiRoutes(ctx: EmulatorContext) {
  void ctx;
  return new Hono<AppEnv>();
}
