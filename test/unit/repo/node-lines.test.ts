import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Docs, examples and workflows a reader copies from (node_modules and build output left out). */
function copiedFrom(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', '.scanctl'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return copiedFrom(path);
    return /\.(md|ya?ml|json)$/.test(entry.name) && !entry.name.endsWith('-lock.json') ? [path] : [];
  });
}

/** scanctl's engines: ^22.14 || >=24 (a bare "22" means the newest 22, which qualifies). */
const accepted = (major: number, minor: number | undefined) => major >= 24 || (major === 22 && (minor === undefined || minor >= 14));

describe('no doc or example names a Node line scanctl refuses', () => {
  it('every node-version, Node image and setup-node line is ^22.14 or >= 24', () => {
    const refused: string[] = [];
    for (const file of [
      join(ROOT, 'README.md'),
      ...copiedFrom(join(ROOT, 'docs')),
      ...copiedFrom(join(ROOT, 'examples')),
      ...copiedFrom(join(ROOT, '.github')),
    ]) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:node-version:\s*['"]?|\bnode:)(\d+)(?:\.(\d+))?/g)) {
        if (!accepted(Number(match[1]), match[2] === undefined ? undefined : Number(match[2])))
          refused.push(`${relative(ROOT, file)}: ${match[0]}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('the package says the same lines', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^22.14.0 || >=24');
  });

  it('README says how to get Node 24 (a version manager or the official installer) and that engine-strict stops an older Node at once', () => {
    const install = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split(/^## /m)
      .find((section) => section.startsWith('Install\n'))!;
    for (const way of ['nvm install 24', 'fnm install 24', 'volta install node@24', 'nodejs.org/en/download'])
      expect(install).toContain(way);
    expect(install).toMatch(/engine-strict=true[\s\S]*EBADENGINE/);
  });
});
