import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/, bottom first: a module may import its own layer or a lower one, never a
 * higher one. Layers of the same rank (client and the simulated SDK) may use each other.
 */
const LAYERS: Array<{ dir: string; rank: number }> = [
  { dir: 'util', rank: 0 },
  // scanctl/verify: the signature check that loads only node:crypto.
  { dir: 'verify.ts', rank: 0 },
  { dir: 'contract', rank: 1 },
  { dir: 'clock', rank: 2 },
  { dir: 'store', rank: 3 },
  { dir: 'webhooks', rank: 4 },
  { dir: 'emulator', rank: 5 },
  // The web console is another face of the emulator: mounted by it, calling its domain functions.
  { dir: 'console', rank: 5 },
  { dir: 'client', rank: 6 },
  { dir: 'sdk', rank: 6 },
  { dir: 'tui', rank: 7 },
  // startEmulator and its handle: the emulator driven in-process, through the clients and the simulated SDK.
  { dir: 'testkit', rank: 7 },
  // scanctl conform and record: black-box probes of a target, through the clients and the simulated SDK.
  { dir: 'conform', rank: 7 },
  { dir: 'cli', rank: 8 },
  // The package's library entry (src/index.ts) may re-export anything.
  { dir: 'index.ts', rank: 9 },
];

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The imports of one file. 'runtime': static `import`/`export ... from` (not `import type`,
 * `export type` or `import { type A }` alone: erased at build time) and dynamic `import()`.
 * 'all': every import, types included (`typeof import()` too).
 */
function importsOf(source: string, which: 'runtime' | 'all'): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(statement)) {
    const names = /^\{([^}]*)\}$/.exec(m[3]!.trim());
    const typesOnly = Boolean(m[2]) || (names !== null && names[1]!.split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim())));
    if (which === 'all' || !typesOnly) found.push(m[4]!);
  }
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/(\btypeof\s+)?\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) if (which === 'all' || !m[1]) found.push(m[2]!);
  return found;
}

/** Resolves a relative `.js` specifier to the .ts/.tsx source file it names (null for packages). */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(dirname(from), specifier);
  const base = target.replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(target, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`${relative(SRC, from)} imports ${specifier}, which resolves to no source file`);
}

function buildGraph(which: 'runtime' | 'all'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const edges = importsOf(readFileSync(file, 'utf8'), which)
      .map((s) => resolveSpecifier(file, s))
      .filter((t): t is string => t !== null);
    graph.set(relative(SRC, file), [...new Set(edges.map((t) => relative(SRC, t)))]);
  }
  return graph;
}

function rankOf(file: string): number {
  const top = file.split('/')[0]!;
  const layer = LAYERS.find((l) => l.dir === top);
  if (!layer) throw new Error(`src/${file} is in no layer: add its folder to LAYERS in test/unit/repo/layers.test.ts`);
  return layer.rank;
}

/** Every cycle of the graph (one per strongly connected component with more than one module, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

describe('the layers of src/', () => {
  const runtime = buildGraph('runtime');
  const all = buildGraph('all');

  it("ARCHITECTURE.md's diagram draws these layers at these ranks, and every folder and top-level module of src/ is in it", () => {
    const doc = readFileSync(resolve(SRC, '../ARCHITECTURE.md'), 'utf8');
    const diagram = /## The layers[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const drawn = [...diagram.matchAll(/^ ?(\d)\s+src\/([\w.-]+)/gm)].map((m) => ({ dir: m[2]!, rank: Number(m[1]) }));
    const byDir = (a: { dir: string }, b: { dir: string }) => a.dir.localeCompare(b.dir);
    expect(drawn.sort(byDir)).toEqual([...LAYERS].sort(byDir));
    const entries = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.tsx?$/.test(e.name))
      .map((e) => e.name);
    expect(entries.sort()).toEqual(LAYERS.map((l) => l.dir).sort());
  });

  it('reads imports the way the build sees them', () => {
    const source = `import type { A } from './a.js';\nimport { type B } from './b.js';\nimport { c, type D } from './c.js';`;
    expect(importsOf(source, 'runtime')).toEqual(['./c.js']);
    expect(importsOf(source, 'all')).toEqual(['./a.js', './b.js', './c.js']);
    const more = `export { e } from './e.js';\nexport type { F } from './f.js';\nconst g = await import('./g.js');\ntype H = typeof import('./h.js');`;
    expect(importsOf(more, 'runtime')).toEqual(['./e.js', './g.js']);
    expect(importsOf(more, 'all')).toEqual(['./e.js', './f.js', './g.js', './h.js']);
    expect(importsOf(`// import { h } from './h.js';\n/* import { i } from './i.js'; */`, 'all')).toEqual([]);
    expect(runtime.size).toBeGreaterThan(50);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['a']]]))).toEqual([['a']]);
  });

  it('no module imports a higher layer, not even a type (util < contract < clock < store < webhooks < emulator < client, sdk < tui < cli)', () => {
    const upward: string[] = [];
    for (const [file, targets] of all) {
      for (const target of targets) if (rankOf(target) > rankOf(file)) upward.push(`${file} -> ${target}`);
    }
    expect(upward).toEqual([]);
  });

  it('no run-time import cycle anywhere', () => {
    expect(cycles(runtime)).toEqual([]);
  });
});
