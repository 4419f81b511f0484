import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const UNIT = join(ROOT, 'test', 'unit');
const SRC = join(ROOT, 'src');
/** The checks of the whole repository (docs, layers, habits): they cover no one folder of src/. */
const REPO = 'repo';

const entries = readdirSync(UNIT, { recursive: true, encoding: 'utf8' });
const folders = entries.filter((path) => statSync(join(UNIT, path)).isDirectory());
const files = entries.filter((path) => !folders.includes(path));

describe('test/unit mirrors src/ (CONTRIBUTING.md: where a unit test goes)', () => {
  it('every folder of test/unit is a folder of src/, repo/ aside', () => {
    expect(folders.length).toBeGreaterThan(10);
    const mirrored = folders.filter((path) => path !== REPO && !path.startsWith(`${REPO}/`));
    const strays = mirrored.filter((path) => !existsSync(join(SRC, path)) || !statSync(join(SRC, path)).isDirectory());
    expect(strays).toEqual([]);
  });

  it('holds test files only, each in a folder (helpers live in test/helpers/)', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((path) => !/\.test\.tsx?$/.test(path))).toEqual([]);
    expect(files.filter((path) => !path.includes('/'))).toEqual([]);
  });
});
