import { describe, expect, it } from 'vitest';
import { JSON_OUTPUTS, jsonFieldRows } from '../../../src/cli/json-fields.js';
import { buildProgram } from '../../../src/cli/program.js';
import { processIo } from '../../../src/cli/io.js';
import { renderCliReference } from '../../../src/cli/reference-docs.js';
import { WebhookDeliveryDetail } from '../../../src/contract/webhooks.js';

describe('the --json output of webhook deliveries, delivery and wait, documented field by field from the contract', () => {
  it('names every field of the schema, nested objects and array items as paths, with its type', () => {
    const rows = jsonFieldRows(WebhookDeliveryDetail);
    const paths = rows.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['id', 'status', 'next_attempt_at', 'request.headers', 'request.body', 'attempt_log[].status']),
    );
    expect(rows.find((r) => r.path === 'attempt_log[].status')).toMatchObject({ type: 'integer or null' });
    expect(rows.find((r) => r.path === 'last_error')).toMatchObject({ type: 'string or null' });
    expect(rows.find((r) => r.path === 'next_attempt_at')).toMatchObject({ type: 'time (ISO 8601, UTC) or null' });
    expect(rows.find((r) => r.path === 'status')!.type).toBe('`pending`, `in_flight`, `succeeded`, `failed`, `cancelled`');
  });

  it('gives every field a meaning (a constant says itself; the list envelope its data)', () => {
    for (const [command, output] of Object.entries(JSON_OUTPUTS)) {
      const bare = jsonFieldRows(output.schema).filter((r) => !r.meaning && !r.type.startsWith('`"') && r.path !== 'data');
      expect(bare, command).toEqual([]);
    }
  });

  it('is in docs/cli: the pages of webhook, scan and clock carry the tables (the reference-docs test keeps them current)', async () => {
    const pages = renderCliReference(await buildProgram('0.0.0-test', processIo()));
    const webhook = pages.find((p) => p.file === 'webhook.md')!.content;
    for (const field of [
      '| `data[].last_status` |',
      '| `attempt_log[].started_at` |',
      '| `clock_moves[].to` |',
      '| `log[].attempts[].status` |',
    ])
      expect(webhook).toContain(field);
    expect(pages.find((p) => p.file === 'scan.md')!.content).toContain('| `reason` |');
    // clock show, advance and set print the clock: each page's table names its fields.
    const clock = pages.find((p) => p.file === 'clock.md')!.content;
    for (const command of ['show', 'advance', 'set']) {
      const section = clock.split(/^## /m).find((s) => s.startsWith(`scanctl clock ${command}\n`))!;
      for (const field of ['| `object` |', '| `now` |', '| `offset_ms` |', '| `played` |']) expect(section, command).toContain(field);
    }
  });
});
