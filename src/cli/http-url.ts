import { InvalidArgumentError } from 'commander';

/** An http(s) URL: apart from parse-options.ts, which loads zod and the contract, as --base-url is checked before any command loads. */
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
