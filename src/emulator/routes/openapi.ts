import { Hono } from 'hono';
import { CONTROL_PREFIX } from '../../contract/control.js';
import type { AppEnv, EmulatorContext } from '../context.js';

/**
 * GET /_scanctl/openapi.json: the OpenAPI 3.1 document, generated from the zod schemas. Under
 * the control plane, not /v1, which belongs to the service. Built on first request (serve's
 * start-up does not pay for it) and kept per origin so `servers` names this emulator.
 */
export function openapiRoutes(ctx: EmulatorContext) {
  void ctx;
  const cache = new Map<string, string>();
  return new Hono<AppEnv>().get(`${CONTROL_PREFIX}/openapi.json`, async (c) => {
    const origin = new URL(c.req.url).origin;
    let text = cache.get(origin);
    if (text === undefined) {
      const { buildOpenApiDocument } = await import('../../contract/openapi.js');
      text = JSON.stringify(buildOpenApiDocument({ serverUrl: origin }), null, 2);
      if (cache.size > 8) cache.clear();
      cache.set(origin, text);
    }
    return c.body(text, 200, { 'content-type': 'application/json; charset=utf-8' });
  });
}
