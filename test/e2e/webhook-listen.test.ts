import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { DEMO } from '../helpers/emulator.js';
import { runCli, startServe } from '../helpers/cli.js';
import { spawnListen } from '../helpers/listen.js';
import { playScans } from '../helpers/scans.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const listen = (args: string[]) => spawnListen(args, cleanups);

describe('scanctl webhook listen (built CLI)', () => {
  it('a second listen for the same app: the first says which listener replaced it and exits 7; app show says who forwards where since when', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const first = listen(['--forward', 'http://127.0.0.1:9/first', '--base-url', serve.baseUrl]);
    await first.line((l) => l.startsWith('Signing secret:'));
    const second = listen(['--forward', 'http://127.0.0.1:9/second', '--json', '--base-url', serve.baseUrl]);
    const ready = JSON.parse(await second.line((l) => l.includes('listener.ready')));
    expect(ready).toMatchObject({ object: 'listener.ready', forward_url: 'http://127.0.0.1:9/second', events: null });
    expect(await first.exited).toBe(EXIT.listenerReplaced);
    const said = first.stderr().trim().split('\n');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^scanctl: replaced by another `webhook listen` \(lsn_\w+\): since \S+ app_demo's deliveries go to http:\/\/127\.0\.0\.1:9\/second$/,
    );

    const shown = await runCli(['app', 'show', '--base-url', serve.baseUrl]);
    expect(shown.stdout).toMatch(
      /webhook listen +forwarding to http:\/\/127\.0\.0\.1:9\/second since 20\d\d-\S+Z \(instead of webhook_url\), lsn_\w+/,
    );
    const json = JSON.parse((await runCli(['app', 'show', '--json', '--base-url', serve.baseUrl])).stdout);
    expect(json.listener).toMatchObject({ object: 'webhook_listener', forward_url: 'http://127.0.0.1:9/second', events: null });
  });

  it('CHOICE-30: state reset keeps a running listen attached (it still forwards, app show names it); an import without the app ends it: one line, exit 8', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const receiver = await startReceiver(DEMO.webhookSecret);
    cleanups.push(() => receiver.close());
    const l = listen(['--forward', receiver.url, '--base-url', serve.baseUrl]);
    await l.line((x) => x.startsWith('Signing secret:'));
    expect((await runCli(['state', 'reset', '--base-url', serve.baseUrl])).code).toBe(0);
    const shown = await runCli(['app', 'show', '--base-url', serve.baseUrl]);
    expect(shown.stdout).toMatch(new RegExp(`webhook listen +forwarding to ${receiver.url.replace(/[.]/g, '\\.')} since`));
    await playScans(serve.baseUrl, 1);
    expect(await l.line((x) => x.includes('attempt 1/17'))).toContain('succeeded');
    expect(await receiver.waitFor(1)).toHaveLength(1);
    // A state without app_demo: the listener cannot stay.
    const empty = await runCli(['state', 'export', '-', '--base-url', serve.baseUrl]);
    const file = JSON.parse(empty.stdout);
    for (const table of Object.keys(file.tables)) if (table !== 'meta') file.tables[table] = [];
    const imported = await runCli(['state', 'import', '-', '--base-url', serve.baseUrl], { input: JSON.stringify(file) });
    expect(imported.code, imported.stderr).toBe(0);
    expect(await l.exited).toBe(EXIT.listenerEnded);
    expect(l.stderr()).toMatch(
      /^scanctl: stopped listening: a `state import` at \S+ changed the state under this listener \(app_demo no longer exists\)\n {2}hint: start `scanctl webhook listen` again\n$/,
    );
  });

  it('when the emulator stops, listen says so in one line and exits 4', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const l = listen(['--base-url', serve.baseUrl]);
    await l.line((l) => l.startsWith('Signing secret:'));
    await serve.stop();
    expect(await l.exited).toBe(EXIT.connection);
    expect(l.stderr()).toBe('scanctl: the emulator stopped: the delivery stream closed\n');
  });

  it('--events filters what is forwarded and printed; an unknown type exits 2 with the valid list', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const bad = await runCli(['webhook', 'listen', '--events', 'scan.completed,scan.done', '--base-url', serve.baseUrl]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain(
      'Expected comma-separated event types among scan.completed, scan.failed, scan.results_available (unknown: "scan.done").',
    );
    const receiver = await startReceiver(DEMO.webhookSecret, () => ({ status: 500, body: '{"error":"db down"}' }));
    cleanups.push(() => receiver.close());
    const l = listen(['--forward', receiver.url, '--events', 'scan.completed', '--base-url', serve.baseUrl]);
    expect(await l.line((x) => x.startsWith('Ready:'))).toContain('(scan.completed)');
    await playScans(serve.baseUrl, 1);
    // The plain line of a failed attempt shows the receiver's answer.
    expect(await l.line((x) => x.includes('attempt 1/17'))).toMatch(
      /scan\.completed .* 500 .* retrying at \S+ \(HTTP 500\) {2}answer: "\{\\"error\\":\\"db down\\"\}"$/,
    );
    const delivery = (await runCli(['webhook', 'deliveries', '--json', '--base-url', serve.baseUrl])).stdout;
    const id = JSON.parse(delivery).data[0].id;
    const detail = await runCli(['webhook', 'delivery', id, '--base-url', serve.baseUrl]);
    expect(detail.stdout).toMatch(/RECEIVER'S ANSWER\n1 .* 500 .* HTTP 500 +"\{\\"error\\":\\"db down\\"\}"/);
  });

  it('--print-secret --json prints one JSON object; --help tells of the live view and its keys', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const secret = await runCli(['webhook', 'listen', '--print-secret', '--json', '--base-url', serve.baseUrl]);
    expect(JSON.parse(secret.stdout)).toEqual({ object: 'webhook_secret', app_id: DEMO.appId, webhook_secret: DEMO.webhookSecret });
    const help = await runCli(['webhook', 'listen', '--help']);
    for (const text of ['live view', 'enter', 'resend', 'EXHAUSTED', 'exits 7', '--events']) expect(help.stdout).toContain(text);
  });
});
