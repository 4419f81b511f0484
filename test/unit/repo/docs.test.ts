import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdown(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const documents = [
  ...['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'bench/RESULTS.md'].map((f) => join(ROOT, f)).filter(existsSync),
  ...markdown(join(ROOT, 'docs')),
];

describe('the documents', () => {
  it('name no path of one machine (a reader has another)', () => {
    const found = documents.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:^|[\s`'"(=:])(\/(?:work|tmp|home|root|Users|var\/folders)\/\S*)/gm)].map(
        (m) => `${relative(ROOT, file)}: ${m[1]}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('the README stays a front page (at most ~200 lines)', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(210);
  });
});
