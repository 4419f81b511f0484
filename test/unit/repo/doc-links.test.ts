import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdown(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const documents = [
  ...['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'examples/backend/README.md'].map((f) => join(ROOT, f)).filter(existsSync),
  ...markdown(join(ROOT, 'docs')),
];

/** The text outside fenced code blocks. */
const outsideFences = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
/** ... and outside inline code: links in examples are not links. */
const prose = (text: string) => outsideFences(text).replace(/`[^`\n]*`/g, '');

/** The targets of `[text](target)` and `![alt](target)` links. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchors for a document's headings (lowercased, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of outsideFences(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of links(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: ...
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    const where = `${relative(ROOT, file)}: ${target}`;
    if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
    else if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(resolved).has(anchor))
      broken.push(`${where} (no such heading)`);
  }
  return broken;
}

describe('links in the documents', () => {
  it('finds links to check (the extraction works)', () => {
    expect(links('[a](docs/x.md) ![b](img.png) `[c](no.md)` [d](https://example.test)')).toEqual([
      'docs/x.md',
      'img.png',
      'https://example.test',
    ]);
    expect([...anchors(join(ROOT, 'docs', 'emulator.md'))]).toContain('exit-codes');
  });

  it('every relative link names a file that exists, and every #anchor a heading of it', () => {
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });
});
