import type { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../../src/cli/global-options.js';
import { processIo } from '../../../src/cli/io.js';
import { buildProgram } from '../../../src/cli/program.js';
import { WebhookDeliveryListQuery, DeliveryStatus, WebhookEventType } from '../../../src/contract/webhooks.js';
import { openDatabase } from '../../../src/store/db.js';
import type { DeliveryRow, EventRow } from '../../../src/store/tables/webhooks.js';
import type { ControlClient } from '../../../src/client/control.js';
import { SIMULATE_DEFAULTS, type SimulateChoices } from '../../../src/sdk/simulate-options.js';
import type { z } from 'zod';
import { testEmulator } from '../../helpers/emulator.js';

/** Each list below is derived from its one declaration; these checks fail when a copy comes back. */
describe('one declaration per thing', () => {
  it('the delivery statuses: the store, the control client and `webhook deliveries --status` take the contract enum', async () => {
    expectTypeOf<DeliveryRow['status']>().toEqualTypeOf<DeliveryStatus>();
    expectTypeOf<EventRow['type']>().toEqualTypeOf<WebhookEventType>();
    expectTypeOf<Parameters<ControlClient['deliveries']>[0]>().toEqualTypeOf<z.output<typeof WebhookDeliveryListQuery> | undefined>();
    const program = await buildProgram('test', processIo());
    const deliveries = program.commands.find((c) => c.name() === 'webhook')!.commands.find((c) => c.name() === 'deliveries')!;
    expect(deliveries.options.find((o) => o.long === '--status')!.argChoices).toEqual(DeliveryStatus.options);
  });

  it("the migrations' CHECK of deliveries.status (kept as history) admits exactly the contract's statuses", () => {
    const db = openDatabase(':memory:');
    const { sql } = db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'deliveries'").get()!;
    db.close();
    const check = /CHECK\s*\(\s*"?status"?\s+IN\s*\(([^)]*)\)/i.exec(sql);
    expect(check, 'deliveries.status has its CHECK').not.toBeNull();
    const listed = check![1]!.split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
    expect([...listed].sort()).toEqual([...DeliveryStatus.options].sort());
  });

  it('the global options: the program registers GLOBAL_OPTIONS', async () => {
    const program = await buildProgram('test', processIo());
    const globals = program.options.map((o) => o.long).filter((long) => long !== '--version');
    expect(globals).toEqual(GLOBAL_OPTIONS.map((o) => o.name));
  });

  it("scan simulate's choices: every one has its flag, with the shared defaults", async () => {
    // The names of SimulateChoices; the type check fails when a choice is added without its flag here.
    const names = [
      'user',
      'outcome',
      'env',
      'key',
      'scope',
      'duplicateReport',
      'uploadRetries',
      'installation',
      'reinstall',
      'bundleId',
      'teamId',
      'appVersion',
    ] as const;
    expectTypeOf<(typeof names)[number]>().toEqualTypeOf<keyof SimulateChoices>();
    const program = await buildProgram('test', processIo());
    const simulate: Command = program.commands.find((c) => c.name() === 'scan')!.commands.find((c) => c.name() === 'simulate')!;
    const flags = new Map(simulate.options.map((o) => [o.attributeName(), o]));
    for (const name of names) expect(flags.has(name), name).toBe(true);
    for (const [name, value] of Object.entries(SIMULATE_DEFAULTS)) expect(flags.get(name)!.defaultValue, name).toBe(value);
  });

  it('CHOICE-2: the rate limit has one source, the config: changing it changes what the limiter enforces', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 0 });
    expect(emu.rateLimiter.limitPerSecond).toBe(0);
    emu.config.rateLimitPerSecond = 7;
    expect(emu.rateLimiter.limitPerSecond).toBe(7);
    const info = await emu.call('GET', '/_scanctl/info');
    expect(info.body.rate_limit_per_second).toBe(7);
  });
});
