import { ErrorBody } from '../contract/errors.js';
import { parseJson } from '../contract/parse-json.js';

/** The spec's error body of a failed answer, or null when it sent something else. */
export async function readErrorBody(response: Response): Promise<ErrorBody['error'] | null> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return null;
  }
  const parsed = parseJson(ErrorBody, text);
  return parsed.ok ? parsed.value.error : null;
}
