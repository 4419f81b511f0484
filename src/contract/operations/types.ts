import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';

/**
 * One row of the OpenAPI table: everything the document says about one route. The schemas are
 * the same zod schemas the routes validate with (one schema, three uses).
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: a secret key (customer backend), a session token (the SDK), the portal cookie,
 * or nobody in particular (the emulator's loopback control plane).
 */
export type Security = 'secretKey' | 'sessionToken' | 'portalCookie' | 'none';

export interface OperationBody {
  schema: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** Checked against the schema by test/unit/openapi.test.ts. */
  example?: unknown;
}

export interface OperationResponse {
  description: string;
  /** The JSON body; omit for an empty answer. */
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
  example?: unknown;
}

export interface HeaderParam {
  name: string;
  required: boolean;
  description: string;
}

export interface Operation {
  method: HttpMethod;
  /** The OpenAPI form: /v1/apps/{app_id}. One entry per concrete path (expand hono's :action{a|b}). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The area, e.g. "backend", "portal", "device", "emulator control plane". */
  tag: string;
  security: Security;
  /** Rule ids of rules.md this operation enforces, shown as x-rules. */
  rules?: string[];
  pathParams?: Record<string, string>;
  /** A zod object whose keys are the query parameters. */
  query?: z.ZodObject;
  headers?: HeaderParam[];
  request?: OperationBody;
  /** Success answers by status. */
  responses: Record<number, OperationResponse>;
  /**
   * Error codes this route can answer with besides the ones that follow from its shape
   * (a JSON body adds the CHOICE-3 codes, a secret key adds invalid_api_key and rate_limited).
   */
  errors?: ErrorCode[];
}

/** A webhook the service sends (OpenAPI 3.1 `webhooks`). */
export interface WebhookEvent {
  /** The event type, e.g. scan.completed: the key under `webhooks`. */
  name: string;
  summary: string;
  description?: string;
  schema: z.ZodType;
  example?: unknown;
  rules?: string[];
}
