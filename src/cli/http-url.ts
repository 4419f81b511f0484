import { InvalidArgumentError } from 'commander';

/** An http(s) URL: a module of its own, as --base-url is checked before any command (and its parsers) loads. */
export function httpUrl(value: string): string {
  if (!isHttpUrl(value)) throw new InvalidArgumentError('Expected an http(s) URL such as http://127.0.0.1:3000/webhooks.');
  return value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
