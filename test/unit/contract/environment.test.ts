import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT, environmentOf } from '../../../src/contract/environment.js';

const doc = readFileSync(new URL('../../../docs/environment.md', import.meta.url), 'utf8');

describe('the environment contract', () => {
  it('docs/environment.md lists exactly the declared names, in order', () => {
    const listed = [...doc.matchAll(/^\| `(SCANCTL_[A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual(Object.keys(ENVIRONMENT));
  });

  it('leaves out a value that is not known, and fills every name from the credentials', () => {
    expect(environmentOf('http://127.0.0.1:1', null)).toEqual({ SCANCTL_BASE_URL: 'http://127.0.0.1:1' });
    const full = environmentOf('http://h:2', { appId: 'a', secretKey: 'sk', publishableKey: null, webhookSecret: 'whsec_x' });
    expect(full).toEqual({
      SCANCTL_BASE_URL: 'http://h:2',
      SCANCTL_APP_ID: 'a',
      SCANCTL_SECRET_KEY: 'sk',
      SCANCTL_WEBHOOK_SECRET: 'whsec_x',
    });
  });
});
