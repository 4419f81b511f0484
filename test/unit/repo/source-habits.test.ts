import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, SRC } from '../../helpers/source-files.js';

/**
 * Habits of ARCHITECTURE.md that no tool knows: one declaration per thing, rules cited by ID, the
 * unit project spawning nothing. What a linter can say lives in eslint.config.js (casts, printing,
 * JSON.parse, option parsers, file length), .dependency-cruiser.cjs (layers, cycles) and knip.jsonc.
 */
/** Every line of src/ matching `pattern`, as "path/from/src.ts: the line" (comments left out). */
function occurrences(pattern: RegExp): string[] {
  return sourceFiles().flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line))
      .map((line) => `${relative(SRC, file)}: ${line.trim()}`),
  );
}

describe('source habits', () => {
  it('one migration runner: runMigrations in store/migrations/index.ts', () => {
    expect(occurrences(/\.up\(|MIGRATIONS\)/).filter((hit) => !hit.startsWith('store/migrations/'))).toEqual([]);
  });

  it('BILL-4: one SQL expression of the billing month (store/billing-month.ts); shipped migrations keep theirs as history', () => {
    const found = occurrences(/strftime\('%Y-%m'/).filter(
      (hit) => !hit.startsWith('store/billing-month.ts: ') && !hit.startsWith('store/migrations/'),
    );
    expect(found).toEqual([]);
  });

  it('the delivery statuses and event types are written in the webhook contract only (contract/webhooks.ts, and the stream outcomes of webhook-stream.ts; shipped migrations aside)', () => {
    const lists = occurrences(
      /'in_flight',\s*'succeeded'|'in_flight'\s*\|\s*'succeeded'|'scan\.completed',\s*'scan\.failed'|'scan\.completed'\s*\|\s*'scan\.failed'/,
    );
    expect(lists.filter((hit) => !/^contract\/webhook(s|-stream)\.ts: |^store\/migrations\//.test(hit))).toEqual([]);
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
