import type { ErrorBody } from '../contract/errors.js';
import type { Operation } from '../contract/operation.js';
import { errorCode, errorMessage } from '../util/caught.js';
import type { HttpAnswer } from './node-request.js';

/** The base URL could not be reached at all. */
export class ConnectionError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`could not reach ${url} (${reason})`);
    this.name = 'ConnectionError';
  }
}

/** The service answered with an error: its status and the spec's error body (when it sent one). */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorBody['error'] | null,
    readonly method: string,
    readonly path: string,
    readonly headers: HttpAnswer['headers'],
  ) {
    super(error ? `${error.type} ${error.code}: ${error.message}` : `HTTP ${status} without the service's error body`);
    this.name = 'ApiCallError';
  }
}

/** A success that does not match the operation's declaration: the server and the contract disagree. */
export class ContractError extends Error {
  constructor(
    readonly operation: Operation,
    readonly status: number,
    readonly reason: string,
  ) {
    super(`${operation.method.toUpperCase()} ${operation.path} answered ${status}, but ${reason}`);
    this.name = 'ContractError';
  }
}

export function describeFetchError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause === undefined) return errorMessage(error);
  return errorCode(cause) ?? errorMessage(cause);
}
