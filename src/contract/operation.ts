import type { z } from 'zod';
import type { ErrorCode } from './errors.js';

/**
 * One operation of the interface, declared once: method, path, security, request, query and
 * responses. The emulator registers its handler against it (src/emulator/http/implement.ts), the
 * typed client calls it (src/client/api.ts), and the OpenAPI document is generated from it
 * (src/contract/openapi.ts): the three cannot disagree.
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
  /** Checked against the schema by test/unit/contract/openapi.test.ts. */
  example?: unknown;
  /** A larger body limit than the emulator's default (a state file); bytes. */
  maxBytes?: number;
  /** The body may be left out: a request without one is taken as `{}` (JSON bodies only). */
  optional?: boolean;
}

export interface OperationResponse {
  description: string;
  /** The JSON body; omit for an empty answer. */
  schema?: z.ZodType;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
  example?: unknown;
}

export interface HeaderParam {
  name: string;
  required: boolean;
  description: string;
  /** The value's rules (default: any string). */
  schema?: z.ZodType;
}

export interface Operation {
  method: HttpMethod;
  /** The OpenAPI form, one entry per concrete path: /v1/apps/{app_id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The area, e.g. "backend", "portal", "device", "emulator control plane". */
  tag: string;
  security: Security;
  /** Rule ids of rules.md this operation enforces, shown as x-rules. */
  rules?: readonly string[];
  pathParams?: Readonly<Record<string, string>>;
  /** A zod object whose keys are the query parameters. */
  query?: z.ZodObject;
  headers?: readonly HeaderParam[];
  request?: OperationBody;
  /** Success answers by status. */
  responses: Readonly<Record<number, OperationResponse>>;
  /**
   * Error codes this route can answer with besides the ones that follow from its shape (a JSON
   * body adds the CHOICE-3 codes, a secret key adds invalid_api_key and rate_limited). For a
   * secret-key route the list also decides how a refused key is answered: a refusal whose own code
   * is not listed is answered 401 invalid_api_key (AUTH-4).
   */
  errors?: readonly ErrorCode[];
}

/** A webhook the service sends (OpenAPI 3.1 `webhooks`). */
export interface WebhookEvent {
  /** The event type, e.g. scan.completed: the key under `webhooks`. */
  name: string;
  summary: string;
  description?: string;
  schema: z.ZodType;
  example?: unknown;
  rules?: readonly string[];
}

/** Declares an operation, keeping its literal path, statuses and schemas in the type. */
export const defineOperation = <const O extends Operation>(op: O): O => op;

// ---- Types derived from a declaration (used by the server and the client alike) ----

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** `{ app_id: string }` for /v1/apps/{app_id}. */
export type PathParams<O extends Operation> = { [K in ParamNames<O['path']>]: string };
export type PathParamName<O extends Operation> = ParamNames<O['path']>;

type SchemaOf<T> = T extends z.ZodType ? T : never;

export type QueryInput<O extends Operation> = O['query'] extends z.ZodType ? z.input<O['query']> : undefined;
export type QueryOutput<O extends Operation> = O['query'] extends z.ZodType ? z.output<O['query']> : undefined;
export type BodyInput<O extends Operation> = O['request'] extends { schema: infer S } ? z.input<SchemaOf<S>> : undefined;
export type BodyOutput<O extends Operation> = O['request'] extends { schema: infer S } ? z.output<SchemaOf<S>> : undefined;

export type SuccessStatus<O extends Operation> = keyof O['responses'] & number;

type ResponseSchema<O extends Operation, S extends SuccessStatus<O>> = O['responses'][S] extends { schema: infer T } ? SchemaOf<T> : never;

/** What a handler answers with status S (the schema's input type: it is serialized as JSON). */
export type ReplyBody<O extends Operation, S extends SuccessStatus<O>> = [ResponseSchema<O, S>] extends [never]
  ? undefined
  : z.input<ResponseSchema<O, S>>;
/** What a client receives with status S (validated with the schema). */
export type ResultBody<O extends Operation, S extends SuccessStatus<O>> = [ResponseSchema<O, S>] extends [never]
  ? undefined
  : z.output<ResponseSchema<O, S>>;

/** Every success a handler may return, as a union over the declared statuses. */
export type Reply<O extends Operation> = {
  [S in SuccessStatus<O>]: { status: S; body: ReplyBody<O, S>; headers?: Record<string, string> };
}[SuccessStatus<O>];

/** Every success a client may receive. */
export type Result<O extends Operation> = {
  [S in SuccessStatus<O>]: { status: S; body: ResultBody<O, S>; headers: Headers };
}[SuccessStatus<O>];

/** The operation's path with its parameters filled in (each one percent-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}

/** The parameter names of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** A list of operations as an object keyed by operationId, each keeping its own type. */
export function byOperationId<const T extends readonly Operation[]>(...ops: T): { [O in T[number] as O['operationId']]: O } {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Object.fromEntries cannot keep each key's own value type
  return Object.fromEntries(ops.map((op) => [op.operationId, op])) as { [O in T[number] as O['operationId']]: O };
}
