import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';

/**
 * hono types a status as the list of codes it knows; the emulator's statuses are numbers from its
 * declarations and errors.ts (499 and a fault's chosen code included), answered as given.
 */
export function isContentfulStatus(status: number): status is ContentfulStatusCode {
  return Number.isInteger(status) && status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304;
}

/** Any status hono may answer, a body-less one (204, 304) included. */
export function isStatus(status: number): status is StatusCode {
  return Number.isInteger(status) && status >= 100 && status <= 599;
}
