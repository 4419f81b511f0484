import { Option } from 'commander';
import type { ApiKey } from '../../../contract/control.js';
import { columns } from '../../output.js';

export const envOption = () => new Option('--env <env>', 'test or live').choices(['test', 'live']).default('test');

export function renderKeys(keys: ApiKey[]): string {
  const rows = keys.map((k) => [
    k.id,
    k.env,
    k.kind,
    k.secret ?? k.display,
    k.state + (k.state === 'rotating' && k.grace_until ? ` until ${k.grace_until}` : ''),
  ]);
  const out = columns(['ID', 'ENV', 'KIND', 'KEY', 'STATE'], rows);
  return keys.some((k) => k.secret && k.kind === 'secret') ? `${out}\n\nThe secret key is shown once: store it now.` : out;
}
