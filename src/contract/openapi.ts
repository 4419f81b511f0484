import { z } from 'zod';
import { ERROR_CODES, ErrorBody, errorTypeForStatus, type ErrorCode } from './errors.js';
import { originCheckExempt } from './origin.js';
import { INTERFACE_VERSION } from './version.js';
import { pathParamNames, type Operation, type WebhookEvent } from './operation.js';
import { CONTROL_TAG, EVENTS, OPERATIONS } from './operations/index.js';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with and
 * the operations table in ./operations. Built from contract modules only, so `scanctl openapi`
 * never loads the emulator. OpenAPI 3.1 schemas are JSON Schema 2020-12: schemas with a
 * `.meta({ id })` become components/schemas and are referenced with $ref.
 */
const DEFAULT_SERVER_URL = 'http://127.0.0.1:7226';

type Json = Record<string, unknown>;

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

/** Codes that follow from an operation's shape, so that each table entry lists only its own. */
function derivedErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = ['host_not_allowed'];
  if (!originCheckExempt(op.path)) codes.push('origin_not_allowed');
  if (op.request)
    codes.push('parameter_missing', 'parameter_invalid', 'parameter_unknown', 'invalid_json', 'unsupported_media_type', 'body_too_large');
  else if (op.method !== 'get') codes.push('unsupported_media_type');
  // CHOICE-14: every route refuses query parameters it does not declare.
  codes.push('parameter_invalid', 'parameter_unknown');
  if (op.query) codes.push('parameter_missing');
  if (op.security === 'secretKey') codes.push('invalid_api_key', 'rate_limited');
  if (op.security === 'portalCookie') codes.push('portal_login_required');
  // CHOICE-35, CHOICE-36: any route may meet a storage condition or a stop in progress (but a status
  // the route answers with its own body, as the health check's 503, keeps that body).
  const anywhere: ErrorCode[] = ['storage_full', 'storage_unavailable', 'storage_busy', 'storage_damaged', 'service_stopping'];
  codes.push(...anywhere.filter((code) => !op.responses[ERROR_CODES[code]]));
  return codes;
}

export function operationErrors(op: Operation): ErrorCode[] {
  return [...new Set([...derivedErrors(op), ...(op.errors ?? [])])];
}

/** An example error body per code: what the emulator answers, message aside. */
export function exampleErrorBody(code: ErrorCode, param?: string): ErrorBody {
  const status = ERROR_CODES[code];
  return {
    error: { type: errorTypeForStatus(status), code, message: `(human-readable explanation of ${code})`, ...(param ? { param } : {}) },
  };
}

/**
 * Collects component schemas across conversions. Each zod schema is converted on its own (input
 * mode for what clients send, output mode for what they receive); its $defs are hoisted into
 * components/schemas. An id whose JSON differs between conversions gets a suffixed name.
 */
class Components {
  readonly schemas: Record<string, Json> = {};

  add(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: (ctx) => {
        const s = ctx.jsonSchema as Json;
        // The generated date-time regex adds nothing to format: date-time but noise.
        if (s.format === 'date-time' && typeof s.pattern === 'string') delete s.pattern;
        // zod names its prefix checks as a format no JSON Schema tool knows; the pattern says it.
        if (s.format === 'starts_with' || s.format === 'ends_with' || s.format === 'includes') delete s.format;
        // format: uri admits ftp: and mailto:; the URL's allowed schemes go into a pattern.
        const protocol = (ctx.zodSchema as { _zod?: { def?: { protocol?: unknown } } })._zod?.def?.protocol;
        if (s.format === 'uri' && protocol instanceof RegExp) s.pattern = `^(?:${protocol.source.replace(/^\^|\$$/g, '')})://`;
      },
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    const rename = new Map<string, string>();
    for (const [name, def] of Object.entries(defs)) rename.set(name, this.place(name, def, io));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value && typeof value === 'object') {
        const out: Json = {};
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
            const name = decodeURIComponent(v.slice('#/$defs/'.length));
            out[k] = `#/components/schemas/${rename.get(name) ?? name}`;
          } else out[k] = rewrite(v);
        }
        return out;
      }
      return value;
    };
    for (const name of rename.values()) this.schemas[name] = rewrite(this.schemas[name]) as Json;
    return rewrite(json) as Json;
  }

  resolve(ref: string): Json {
    const schema = this.schemas[ref.slice('#/components/schemas/'.length)];
    if (!schema) throw new Error(`unresolved ${ref}`);
    return schema;
  }

  private place(name: string, def: Json, io: 'input' | 'output'): string {
    const base = name.startsWith('__schema') ? 'Schema' : name;
    const candidates = [base, `${base}${io === 'input' ? 'Input' : 'Output'}`];
    for (let i = 2; candidates.length < 50; i++) candidates.push(`${base}${i}`);
    const text = JSON.stringify(def);
    for (const candidate of candidates) {
      const existing = this.schemas[candidate];
      if (existing === undefined) {
        this.schemas[candidate] = def;
        return candidate;
      }
      // Compare before $ref rewriting of the new one: existing refs are already rewritten, so
      // compare through a normalised form.
      if (JSON.stringify(existing).replaceAll('#/components/schemas/', '#/$defs/') === text) return candidate;
    }
    throw new Error(`too many different schemas named ${name}`);
  }
}

function content(contentType: string, schema: Json, example?: unknown): Json {
  return { [contentType]: { schema, ...(example === undefined ? {} : { example }) } };
}

/** Headers every error answer of a status carries (RFC 9110 challenge on 401; the wait on 429). */
const ERROR_HEADERS: Record<number, Json> = {
  401: {
    'WWW-Authenticate': {
      required: true,
      description: 'The challenge: Bearer, or for the portal\'s routes Cookie cookie-name="scanctl_portal".',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': {
      required: false,
      description: 'Seconds to wait before retrying (sent with rate_limited).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
};

/**
 * The body schema of a success: JSON as its zod schema says; a stream or bytes as a string of
 * their media type (an event stream names the schema of each data line in x-data-schema).
 */
function responseSchema(response: Operation['responses'][number], components: Components): Json {
  const type = response.contentType ?? 'application/json';
  if (type === 'application/json') return response.schema ? components.add(response.schema, 'output') : { type: 'object' };
  return {
    type: 'string',
    contentMediaType: type,
    ...(response.schema ? { 'x-data-schema': components.add(response.schema, 'output') } : {}),
  };
}

function buildOperation(op: Operation, components: Components, errorRef: Json): Json {
  const parameters: Json[] = [];
  for (const name of pathParamNames(op.path)) {
    parameters.push({ name, in: 'path', required: true, description: op.pathParams?.[name] ?? name, schema: { type: 'string' } });
  }
  if (op.query) {
    let query = components.add(op.query, 'input');
    if (typeof query.$ref === 'string') query = components.resolve(query.$ref);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  for (const header of op.headers ?? []) {
    const schema = header.schema ? components.add(header.schema, 'input') : { type: 'string' };
    parameters.push({ name: header.name, in: 'header', required: header.required, description: header.description, schema });
  }

  const responses: Json = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const entry: Json = { description: response.description };
    if (response.schema || response.contentType) {
      entry.content = content(response.contentType ?? 'application/json', responseSchema(response, components), response.example);
    }
    if (response.headers) {
      entry.headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
      );
    }
    responses[status] = entry;
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrors(op)) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `${errorTypeForStatus(status)}: ${codes.join(', ')}.`,
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content: {
        'application/json': {
          schema: errorRef,
          examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: exampleErrorBody(code) }])),
        },
      },
    };
  }

  const out: Json = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.security === 'none' ? [] : [{ [op.security]: [] }],
    ...(parameters.length ? { parameters } : {}),
  };
  if (op.request) {
    out.requestBody = {
      required: !op.request.optional,
      content: content(op.request.contentType ?? 'application/json', components.add(op.request.schema, 'input'), op.request.example),
    };
  }
  out.responses = responses;
  if (op.rules?.length) out['x-rules'] = op.rules;
  return out;
}

function buildWebhook(event: WebhookEvent, components: Components): Json {
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return {
    post: {
      operationId: `webhook_${event.name.replace(/[^A-Za-z0-9]+/g, '_')}`,
      summary: event.summary,
      ...(event.description ? { description: event.description } : {}),
      parameters: [
        header('Service-Signature', 'Hex HMAC-SHA256 of the raw body, keyed with the whsec_ signing secret. Verify before parsing (WH-4).'),
        header('Service-Event-Id', 'Stable per scan and across retries; dedupe on it (WH-5).'),
        header('Service-Event-Type', `${event.name}; equals type in the body (WH-6).`),
      ],
      requestBody: { required: true, content: content('application/json', components.add(event.schema, 'output'), event.example) },
      responses: {
        '2XX': { description: 'Any 2xx acknowledges the delivery (WH-7).' },
        default: {
          description: 'Anything else (and redirects, which are not followed) is retried: 17 attempts over about 50 hours (WH-7, WH-9).',
        },
      },
      ...(event.rules?.length ? { 'x-rules': event.rules } : {}),
    },
  };
}

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
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
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
