import { ErrorBody } from './errors.js';
import { Components, type Json } from './openapi-components.js';
import { buildOperation, buildWebhook } from './openapi-paths.js';
import { INTERFACE_VERSION } from './version.js';
import type { Operation, WebhookEvent } from './operation.js';
import { CONTROL_TAG, EVENTS, OPERATIONS } from './operations/index.js';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with and
 * the operations table in ./operations. Built from contract modules only, so `scanctl openapi`
 * never loads the emulator. OpenAPI 3.1 schemas are JSON Schema 2020-12: schemas with a
 * `.meta({ id })` become components/schemas and are referenced with $ref.
 */
const DEFAULT_SERVER_URL = 'http://127.0.0.1:7226';

export interface OpenApiOptions {
  /** The server the document points at (serve uses its own address). */
  serverUrl?: string;
  operations?: readonly Operation[];
  events?: readonly WebhookEvent[];
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  backend: "The customer backend's routes, called with a secret key. Never from a device.",
  portal: "The portal's routes the interface names (cookie authentication; shapes are the emulator's CHOICE-6).",
  device: "The SDK's routes: session token plus device attestation (shapes are the emulator's CHOICE-7).",
  [CONTROL_TAG]:
    "The emulator's own routes under /_scanctl (CHOICE-8): the portal's side, the clock, deliveries and faults. Loopback only, no authentication; not part of the service.",
};

export function buildOpenApiDocument(options: OpenApiOptions = {}): Json {
  const operations = options.operations ?? OPERATIONS;
  const events = options.events ?? EVENTS;
  const components = new Components();
  const errorRef = components.add(ErrorBody, 'output');

  const paths: Record<string, Json> = {};
  const seen = new Set<string>();
  for (const op of operations) {
    const key = `${op.method} ${op.path}`;
    if (seen.has(key)) throw new Error(`the operations table lists ${key} twice`);
    seen.add(key);
    (paths[op.path] ??= {})[op.method] = buildOperation(op, components, errorRef);
  }
  const webhooks: Record<string, Json> = {};
  for (const event of events) webhooks[event.name] = buildWebhook(event, components);

  const tags = [...new Set(operations.map((op) => op.tag))].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
  }));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Body-scanning service: backend session and webhook interface (scanctl emulator)',
      version: INTERFACE_VERSION,
      description:
        'The backend interface of the body-scanning service as the scanctl emulator implements it: minting session tokens, ' +
        'deleting stored results, signed webhooks, plus the routes the interface leaves "not shown" (portal, device) with the ' +
        "emulator's documented choices, and the emulator's own control plane under /_scanctl. Every error is the error body " +
        '{error: {type, code, message, param?}}. Each operation lists every status it answers; besides those, a fault the developer ' +
        'injects on purpose (scanctl faults) answers the status they chose, and a request the HTTP parser cannot read is 400 ' +
        'request_malformed (431 headers_too_large).',
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'scanctl serve (the local emulator)' }],
    tags,
    paths,
    ...(events.length ? { webhooks } : {}),
    components: {
      schemas: components.schemas,
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A secret key, sk_test_... or sk_live_...: the customer server only (AUTH-1).',
        },
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A vst_ session token minted by POST /v1/sessions: what the SDK presents (AUTH-13).',
        },
        portalCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'scanctl_portal',
          description: 'The portal session cookie from POST /_scanctl/portal/login (CHOICE-6).',
        },
      },
    },
  };
}
