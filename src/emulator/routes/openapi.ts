import { OPS } from '../../contract/operations/index.js';
import { implement } from '../http/implement.js';

/**
 * GET /_scanctl/openapi.json: generated from the operations on first request (serve's start-up
 * does not pay for it) and kept per origin so `servers` names this emulator.
 */
const documents = new Map<string, string>();

export const openapiRoutes = [
  implement(OPS.openapiDocument)(async ({ c }) => {
    const origin = new URL(c.req.url).origin;
    let text = documents.get(origin);
    if (text === undefined) {
      const { buildOpenApiDocument } = await import('../../contract/openapi.js');
      text = JSON.stringify(buildOpenApiDocument({ serverUrl: origin }), null, 2);
      if (documents.size > 8) documents.clear();
      documents.set(origin, text);
    }
    return c.body(text, 200, { 'content-type': 'application/json; charset=utf-8' });
  }),
] as const;
