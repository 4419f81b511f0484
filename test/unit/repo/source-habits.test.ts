import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Habits of ARCHITECTURE.md that a reader cannot see from one file: one declaration per thing, no
 * cast of unvalidated data, engines that never print. Each check lists what breaks the habit today,
 * with why it is allowed; anything new fails here with its file and line.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every line of src/ matching `pattern`, as "path/from/src.ts: the line" (comments left out). */
function occurrences(pattern: RegExp): string[] {
  return sourceFiles().flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line))
      .map((line) => `${relative(SRC, file)}: ${line.trim()}`),
  );
}

/** What an allowlist entry is: a file, the start of the line's text, and why it may stay. */
type Allowed = { file: string; text: string; why: string };

/** What is found and not allowed, and any allowance that no longer matches anything (it must go). */
function unexpected(found: string[], allowed: Allowed[]): string[] {
  const matches = (a: Allowed, hit: string) => hit.startsWith(`${a.file}: `) && hit.includes(a.text);
  const stale = allowed.filter((a) => !found.some((hit) => matches(a, hit))).map((a) => `no longer needed: ${a.file}: ${a.text}`);
  return [...found.filter((hit) => !allowed.some((a) => matches(a, hit))), ...stale];
}

describe('source habits', () => {
  it("no cast of parsed data: JSON.parse(...) as T, `as unknown as`, a stream event's data as T (validate with the schema: contract/parse-json.ts)", () => {
    const found = occurrences(/JSON\.parse\(.*\)\)?\s+as\s|\.json\(\)\)?\s+as\s|as unknown as|\.data as [A-Z]/);
    const allowed: Allowed[] = [
      {
        file: 'emulator/domain/scans.ts',
        text: 'JSON.parse(seen.response) as unknown',
        why: "the emulator's own stored answer, written from a validated response",
      },
      {
        file: 'emulator/domain/device.ts',
        text: 'JSON.parse(session.scopes) as string[]',
        why: 'a column the emulator writes itself from the validated mint request',
      },
      {
        file: 'webhooks/outbox.ts',
        text: 'JSON.parse(events) as string[]',
        why: "a listener's event list, written by the emulator from the validated stream query",
      },
      { file: 'webhooks/views.ts', text: 'JSON.parse(last.request_headers)', why: 'the headers the engine itself recorded for an attempt' },
      { file: 'webhooks/views.ts', text: 'JSON.parse(row.events)', why: "a listener's event list, written by the emulator" },
      {
        file: 'webhooks/dispatch/chaos-hold.ts',
        text: 'JSON.parse(row.chaos_hold) as ChaosHold',
        why: 'the hold the engine itself wrote for a delayed attempt',
      },
      { file: 'emulator/http/implement.ts', text: 'as unknown as Route', why: 'erases the operation type of a typed handler, no data' },
      {
        file: 'cli/reference-docs.ts',
        text: 'as unknown as NodeJS.EventEmitter',
        why: "commander's Command is an EventEmitter its types do not say",
      },
      {
        file: 'client/sse.ts',
        text: 'as unknown as AsyncIterable<Uint8Array>',
        why: 'a fetch body is async iterable in Node; the DOM types do not say so',
      },
      {
        file: 'emulator/http/in-flight.ts',
        text: 'res as unknown as Record<string, unknown>',
        why: "a ServerResponse's own fields, no parsed data",
      },
    ];
    expect(unexpected(found, allowed)).toEqual([]);
  });

  it('engines never print: outside cli/, nothing writes to the console, stdout, stderr or process warnings (a host gives a Logger)', () => {
    const found = occurrences(/\bconsole\.(log|error|warn|info|debug)\(|process\.(stderr|stdout)\.write|process\.emitWarning/).filter(
      (hit) => !hit.startsWith('cli/'),
    );
    const allowed: Allowed[] = [
      {
        file: 'testkit/start-emulator.ts',
        text: 'process.stderr.write(',
        why: 'startEmulator({ quiet: false }) asks for the request log on stderr',
      },
    ];
    expect(unexpected(found, allowed)).toEqual([]);
  });

  it('one migration runner (runMigrations in store/migrations/index.ts) and one parse-and-validate helper (contract/parse-json.ts)', () => {
    expect(occurrences(/\.up\(|MIGRATIONS\)/).filter((hit) => !hit.startsWith('store/migrations/'))).toEqual([]);
    const parses = occurrences(/JSON\.parse\(|\.safeParse\(/);
    const allowed: Allowed[] = [
      { file: 'contract/parse-json.ts', text: '', why: 'the helper itself' },
      { file: 'util/raw-json.ts', text: 'String(JSON.parse(', why: 'decodes one JSON string literal of text already validated' },
      {
        file: 'util/package-root.ts',
        text: 'JSON.parse(readFileSync(packagePath(',
        why: "the package's own package.json, checked field by field",
      },
      {
        file: 'emulator/http/implement.ts',
        text: 'declared.schema?.safeParse(reply.body)',
        why: "checks the emulator's own answer against its declaration (tests)",
      },
      { file: 'console/assets.ts', text: 'JSON.parse(event.data)', why: "the console's browser script, a string sent to the page" },
      // The emulator's own columns (see the casts above).
      { file: 'emulator/domain/scans.ts', text: 'JSON.parse(seen.response)', why: 'own stored answer' },
      { file: 'emulator/domain/device.ts', text: 'JSON.parse(session.scopes)', why: 'own column' },
      { file: 'webhooks/outbox.ts', text: 'JSON.parse(events)', why: 'own column' },
      { file: 'webhooks/views.ts', text: 'JSON.parse(', why: 'own columns' },
      { file: 'webhooks/dispatch/chaos-hold.ts', text: 'JSON.parse(row.chaos_hold)', why: 'own column' },
    ];
    expect(unexpected(parses, allowed)).toEqual([]);
  });

  it("the option parsers live in cli/parse-options.ts: no command throws commander's InvalidArgumentError itself", () => {
    expect(occurrences(/InvalidArgumentError/).filter((hit) => !hit.startsWith('cli/parse-options.ts: '))).toEqual([]);
  });

  it('small files: no module of src/ is over 300 lines (split it by what its parts hold)', () => {
    // Over the line today, each with the size it may not pass while it waits for its split.
    const waiting = new Map([['contract/openapi.ts', 330]]);
    const long = sourceFiles()
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > (waiting.get(f.file) ?? 300));
    expect(long).toEqual([]);
  });

  it('BILL-4: one SQL expression of the billing month (store/billing-month.ts); shipped migrations keep theirs as history', () => {
    const found = occurrences(/strftime\('%Y-%m'/).filter(
      (hit) => !hit.startsWith('store/billing-month.ts: ') && !hit.startsWith('store/migrations/'),
    );
    expect(found).toEqual([]);
  });

  it('the delivery statuses and event types are written once, in contract/webhooks.ts (shipped migrations aside)', () => {
    const lists = occurrences(
      /'in_flight',\s*'succeeded'|'in_flight'\s*\|\s*'succeeded'|'scan\.completed',\s*'scan\.failed'|'scan\.completed'\s*\|\s*'scan\.failed'/,
    );
    expect(lists.filter((hit) => !hit.startsWith('contract/webhooks.ts: ') && !hit.startsWith('store/migrations/'))).toEqual([]);
  });
});

describe('test habits', () => {
  it('unit tests spawn nothing: processes belong to test/e2e (the unit project must not test a stale dist/)', () => {
    const UNIT = resolve(SRC, '../test/unit');
    const spawning = /from 'node:child_process'|helpers\/(cli|listen|robust)\.js'/;
    const found = readdirSync(UNIT, { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && name !== join('repo', 'source-habits.test.ts'))
      .filter((name) => spawning.test(readFileSync(join(UNIT, name), 'utf8')));
    expect(found).toEqual([]);
  });
});
