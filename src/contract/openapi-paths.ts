import { ERROR_CODES, errorTypeForStatus, type ErrorCode } from './errors.js';
import { jsonObject, type Components, type Json } from './openapi-components.js';
import { ERROR_HEADERS, exampleErrorBody, operationErrors } from './openapi-errors.js';
import { pathParamNames, type Operation, type WebhookEvent } from './operation.js';

/** One operation (a path item's method) and one webhook of the OpenAPI document, from their declarations. */

function content(contentType: string, schema: Json, example?: unknown): Json {
  return { [contentType]: { schema, ...(example === undefined ? {} : { example }) } };
}

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

export function buildOperation(op: Operation, components: Components, errorRef: Json): Json {
  const parameters: Json[] = [];
  for (const name of pathParamNames(op.path)) {
    parameters.push({ name, in: 'path', required: true, description: op.pathParams?.[name] ?? name, schema: { type: 'string' } });
  }
  if (op.query) {
    let query = components.add(op.query, 'input');
    if (typeof query.$ref === 'string') query = components.resolve(query.$ref);
    const required = new Set(Array.isArray(query.required) ? query.required : []);
    for (const [name, schema] of Object.entries(jsonObject(query.properties))) {
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

export function buildWebhook(event: WebhookEvent, components: Components): Json {
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
