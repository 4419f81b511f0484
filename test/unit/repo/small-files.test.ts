import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, SRC } from '../../helpers/source-files.js';

/**
 * A file of src/ under 10 lines is folded into its one caller, unless it is a module of its own for a
 * reason (most: several callers, in more than one module or layer). Each such file is named here with
 * that reason; a new one fails until it is folded or listed.
 */
const SMALL = 10;
const MODULES_OF_THEIR_OWN: Record<string, string> = {
  'contract/version.ts': 'VER-1, read by the control schemas, the OpenAPI document and the clock route',
  'contract/list.ts': 'the list envelope of every listing, used by six contract modules',
  'contract/seeded.ts': 'the seed and probability of seeded draws, shared by faults and chaos',
  'contract/origin.ts': "which routes skip the Origin check: one rule for the server's host guard and the OpenAPI document",
  'store/billing-month.ts': "BILL-4's one SQL expression of the month, for the usage counters and their rebuild (source-habits.test.ts)",
  'util/listening-port.ts': "a bound server's port, for serve, exec and conform: three layers",
  'cli/commands/clock/render.ts': 'the clock line, printed by clock show, set and advance',
  'exe/entry.ts': "the CLI's bundle inside the executable: what its main script (loader.ts) runs and trains",
};

function lineCount(path: string): number {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe(`files of src/ under ${SMALL} lines`, () => {
  const small = sourceFiles()
    .filter((path) => lineCount(path) < SMALL)
    .map((path) => relative(SRC, path).split('\\').join('/'))
    .sort();

  it('each is a module of its own for a reason named here, or is folded into its caller', () => {
    expect(small.filter((file) => !(file in MODULES_OF_THEIR_OWN))).toEqual([]);
  });

  it('the list names only such files, each with its reason (a file that grew or went is taken off)', () => {
    expect(Object.keys(MODULES_OF_THEIR_OWN).filter((file) => !small.includes(file))).toEqual([]);
    for (const [file, reason] of Object.entries(MODULES_OF_THEIR_OWN)) expect(reason.length, file).toBeGreaterThan(20);
  });
});
