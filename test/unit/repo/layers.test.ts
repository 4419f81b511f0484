import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The import rules themselves are dependency-cruiser's (.dependency-cruiser.cjs, run by `npm run lint`);
// what no tool knows is that the list they come from is the one ARCHITECTURE.md draws and covers all of src/.
const ROOT = resolve(import.meta.dirname, '../../..');
const { LAYERS } = createRequire(import.meta.url)('../../../layers.config.cjs') as { LAYERS: Array<{ dir: string; rank: number }> };

describe('the layers of src/', () => {
  it("ARCHITECTURE.md's diagram draws the layers of layers.config.cjs at their ranks", () => {
    const doc = readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const diagram = /## The layers[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const drawn = [...diagram.matchAll(/^ ?(\d)\s+src\/([\w.-]+)/gm)].map((m) => ({ dir: m[2]!, rank: Number(m[1]) }));
    const byDir = (a: { dir: string }, b: { dir: string }) => a.dir.localeCompare(b.dir);
    expect(drawn.sort(byDir)).toEqual([...LAYERS].sort(byDir));
  });

  it('every folder and top-level module of src/ is in a layer', () => {
    const entries = readdirSync(resolve(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.tsx?$/.test(e.name))
      .map((e) => e.name);
    expect(entries.sort()).toEqual(LAYERS.map((l) => l.dir).sort());
  });
});
