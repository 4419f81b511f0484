import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../src/contract/choices.js';
import type { RequestLogEntry } from '../../../src/emulator/bus.js';
import { testEmulator } from '../../helpers/emulator.js';

const entry = (i: number): RequestLogEntry => ({
  time: new Date(0).toISOString(),
  method: 'GET',
  path: `/${'p'.repeat(400)}/${i}`,
  status: 404,
  latency_ms: 0,
});

describe('CHOICE-37: a stream subscriber that does not read', () => {
  it('CHOICE-37: is dropped once its unsent events pass the bound: unsubscribed at once, its queue let go, a close event last', async () => {
    const emu = testEmulator();
    const subscribers = () => (emu.requestLog as unknown as { subscribers: Set<unknown> }).subscribers.size;
    const response = await emu.app.request('/_scanctl/logs/stream?all=1');
    expect(response.status).toBe(200);
    // Read up to the ready event, then stop reading.
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('event: ready')) seen += new TextDecoder().decode((await reader.read()).value);
    expect(emu.streams.size).toBe(1);
    expect(subscribers()).toBe(1);
    const lines = Math.ceil((CHOICES.streamBufferBytes * 2) / 500);
    for (let i = 0; i < lines; i += 1) emu.bus.emit('request', entry(i));
    // Past the bound: no longer subscribed, whatever the client does next.
    expect(subscribers()).toBe(0);
    // What the client reads now ends with the close event, and far short of every line.
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toMatch(/event: close\ndata: \{"object":"stream.closed","reason":"subscriber_too_slow","message":"[^"]+"\}\n\n$/);
    expect(rest.match(/^event: request$/gm)!.length).toBeLessThan(lines / 2);
    expect(emu.streams.size).toBe(0);
  });

  it('CHOICE-37: a subscriber that reads is never dropped, however many events pass', async () => {
    const emu = testEmulator();
    const response = await emu.app.request('/_scanctl/logs/stream?all=1');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: ready')) text += new TextDecoder().decode((await reader.read()).value);
    const lines = Math.ceil((CHOICES.streamBufferBytes * 4) / 500);
    let got = 0;
    for (let i = 0; i < lines; i += 1) {
      emu.bus.emit('request', entry(i));
      // Read as it comes: one event at a time.
      const chunk = new TextDecoder().decode((await reader.read()).value);
      got += chunk.match(/^event: request$/gm)?.length ?? 0;
    }
    expect(got).toBe(lines);
    expect(emu.streams.size).toBe(1);
    await reader.cancel();
  });
});
