import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ID = /\b(?:AUTH|SES|DEL|APP|DEV|BILL|WH|ERR|VER|CHOICE)-\d+\b/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : /\.test\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** The IDs that test titles name: the first argument of it(...) and describe(...). */
function titledIds(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of testFiles(join(ROOT, 'test'))) {
    const source = readFileSync(file, 'utf8');
    for (const title of source.matchAll(/\b(?:it|test|describe)(?:\.\w+)*\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
      for (const id of title[2]!.match(ID) ?? []) found.set(id, [...(found.get(id) ?? []), relative(ROOT, file)]);
    }
  }
  return found;
}

describe('docs/rules.md, the numbered rules in our own words', () => {
  const documented = [...readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8').matchAll(/^\| ((?:[A-Z]+)-\d+) \|/gm)].map((m) => m[1]!);

  it('lists each rule once', () => {
    expect(documented.length).toBeGreaterThanOrEqual(70);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('every rule it lists is named by the title of at least one test', () => {
    const titled = titledIds();
    const unproved = documented.filter((id) => !id.startsWith('CHOICE-') && !titled.has(id));
    expect(unproved).toEqual([]);
  });

  it('every ID a test title names is one it lists, so a reader can look it up', () => {
    const unknown = [...titledIds().keys()].filter((id) => !documented.includes(id));
    expect(unknown).toEqual([]);
  });
});
