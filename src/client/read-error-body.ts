import { ErrorBody } from '../contract/errors.js';
import { parseJson } from '../contract/parse-json.js';
import type { HttpAnswer } from './node-request.js';

/** The spec's error body of a failed answer, or null when it sent something else. */
export async function readErrorBody(response: HttpAnswer): Promise<ErrorBody['error'] | null> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return null;
  }
  const parsed = parseJson(ErrorBody, text);
  return parsed.ok ? parsed.value.error : null;
}
