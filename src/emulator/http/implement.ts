import type { Context, Hono } from 'hono';
import {
  pathParamNames,
  type BodyOutput,
  type Operation,
  type PathParams,
  type QueryOutput,
  type Reply,
} from '../../contract/operation.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { LOADERS, type LoadedOf } from './loaders.js';
import { authenticate, type CallerOf } from './security.js';
import { isContentfulStatus, isStatus } from './status.js';
import { parseWith } from '../../contract/request-errors.js';
import { readJson, readQuery, refuseUnexpectedBody, sentBody } from './validate.js';

/** What a handler gets before its query and body are read: the caller and the loaded path rows. */
export type BeforeInput<O extends Operation> = {
  ctx: EmulatorContext;
  c: Context<AppEnv>;
  caller: CallerOf<O>;
  params: PathParams<O>;
} & LoadedOf<O>;

/** Everything a handler works with, validated against the operation's schemas. */
export type RouteInput<O extends Operation> = BeforeInput<O> & { query: QueryOutput<O>; body: BodyOutput<O> };

/** A declared success, or a Response of its own (a stream, bytes). */
export type HandlerResult<O extends Operation> = Reply<O> | Response;

export interface Route<O extends Operation = Operation> {
  op: O;
  handler: (input: RouteInput<O>) => HandlerResult<O> | Promise<HandlerResult<O>>;
  /** Checks that must refuse before the body is read (a missing scope, results delivery off). */
  before?: (input: BeforeInput<O>) => void;
}

/**
 * The handler of one declared operation: `implement(OPS.getApp)(({ app }) => ({ status: 200, body: appView(app) }))`.
 * Authentication follows its security, path rows are loaded, the query and body are validated with
 * its schemas, and the answer must be one of its declared statuses: nothing about the route is
 * written a second time. (Two calls, so that the operation's type is fixed before the handler's
 * answer is checked against it.)
 */
export function implement<const O extends Operation>(op: O, options: { before?: Route<O>['before'] } = {}) {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- erases the operation type for the route list; mountRoutes builds each input from that same operation
  return (handler: Route<O>['handler']): Route => ({ op, handler, before: options.before }) as unknown as Route;
}

/** hono's form of an operation path: /v1/apps/{app_id} -> /v1/apps/:app_id. */
const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** Registers every route on the app, in order. */
export function mountRoutes(app: Hono<AppEnv>, ctx: EmulatorContext, routes: readonly Route[]): void {
  for (const route of routes) {
    const { op } = route;
    const params = pathParamNames(op.path);
    const loaders = params.filter((name) => LOADERS[name]).map((name) => [name, LOADERS[name]!] as const);
    const json = op.request !== undefined && (op.request.contentType ?? 'application/json') === 'application/json';
    app.on(op.method.toUpperCase(), honoPath(op.path), async (c) => {
      const caller = authenticate(ctx, c, op);
      const values = c.req.param() as Record<string, string>;
      const input: Record<string, unknown> = { ctx, c, caller, params: values };
      for (const [name, load] of loaders) {
        const [as, row] = load(ctx, values[name]!, caller);
        input[as] = row;
      }
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- input is built above from this route's own operation
      route.before?.(input as never);
      input.query = readQuery(c, op.query);
      // An optional body left out is an empty object, checked by the same schema.
      if (json && op.request!.optional && !sentBody(c)) input.body = parseWith(op.request!.schema, {});
      else input.body = json ? await readJson(c, op.request!.schema) : undefined;
      if (!op.request && op.method !== 'get') await refuseUnexpectedBody(c);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- input is built above from this route's own operation; the reply is checked below
      const reply = (await route.handler(input as never)) as Response | { status: number; body: unknown; headers?: Record<string, string> };
      if (reply instanceof Response) return reply;
      if (ctx.config.validateResponses) checkReply(op, reply);
      if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) c.header(name, value);
      const { status, body } = reply;
      if (body === undefined && isStatus(status)) return c.body(null, status);
      if (body !== undefined && isContentfulStatus(status)) return c.json(body, status);
      throw new Error(`${op.operationId} answered status ${status}, which cannot carry what it sent`);
    });
  }
}

/** Tests run with validateResponses: an answer outside the declaration fails loudly instead of drifting. */
function checkReply(op: Operation, reply: { status: number; body: unknown }): void {
  const declared = op.responses[reply.status];
  if (!declared) throw new Error(`${op.operationId} answered ${reply.status}, which it does not declare`);
  const parsed = declared.schema?.safeParse(reply.body);
  if (parsed && !parsed.success) {
    throw new Error(`${op.operationId} answered ${reply.status} with a body its schema refuses: ${parsed.error.message.slice(0, 500)}`);
  }
}
