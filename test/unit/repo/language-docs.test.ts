import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const FILES: Record<string, string[]> = {
  python: ['examples/python/conftest.py', 'examples/python/verify.py', 'examples/python/test_webhooks.py'],
  java: ['examples/java/ScanctlTest.java'],
  go: ['examples/go/scanctl_test.go'],
  ruby: ['examples/ruby/scanctl_test.rb'],
};

describe('docs/languages.md shows the recipes as they are', () => {
  const doc = read('docs/languages.md');
  const blocks = [...doc.matchAll(/```(python|java|go|ruby)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1]!, code: m[2]! }));

  it('has a block for each language', () => {
    expect(new Set(blocks.map((b) => b.language))).toEqual(new Set(Object.keys(FILES)));
  });

  it('every paragraph of every block is verbatim in the recipe file it comes from', () => {
    for (const { language, code } of blocks) {
      const source = FILES[language]!.map(read).join('\n');
      // A block may join two excerpts: each paragraph of it is verbatim in the file.
      for (const excerpt of code.split(/\n\s*\n/)) expect(source, `${language}: ${excerpt.slice(0, 60)}`).toContain(excerpt.trimEnd());
    }
  });
});

describe('one Python verify', () => {
  it('docs/testing.md shows examples/python/verify.py as it is', () => {
    const blocks = [...read('docs/testing.md').matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toEqual([read('examples/python/verify.py')]);
  });
});
