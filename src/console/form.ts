import type { Context } from 'hono';
import { ApiError } from '../contract/errors.js';

/** A posted form's text fields (a repeated field keeps its last value; files are ignored). */
export type FormFields = Record<string, string>;

export async function readForm(c: Context): Promise<FormFields> {
  const body = await c.req.parseBody();
  const fields: FormFields = {};
  for (const [name, value] of Object.entries<unknown>(body)) {
    const last: unknown = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === 'string') fields[name] = last;
  }
  return fields;
}

/**
 * What a refused action shows: the API's own error (code, message, param) beside the field the
 * param names, or beside the form's button when it names none. `form` says which form of the page.
 */
export interface Failure {
  form: string;
  status: number;
  code: string;
  message: string;
  param?: string | undefined;
}

/** The API's error as a form failure; anything that is not an API error is a bug and propagates. */
export function failureOf(form: string, error: unknown): Failure {
  if (!(error instanceof ApiError)) throw error;
  return { form, status: error.status, code: error.code, message: error.message, param: error.param };
}

/** Runs an action; its API error becomes the page's failure, its value the result. */
export async function attempt<T>(
  form: string,
  action: () => T | Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: Failure }> {
  try {
    return { ok: true, value: await action() };
  } catch (error) {
    return { ok: false, failure: failureOf(form, error) };
  }
}

/** A form's number field as the API would receive it in JSON: a number when it reads as one, else the text (so the schema names the problem). */
export function numberField(value: string | undefined): number | string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : value;
}

/** A form's optional text field: absent when empty. */
export function textField(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
