import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../helpers/source-files.js';

/**
 * CONTRIBUTING.md shows real code: each `ts` block is taken from src/ as it is now (a line
 * `// ...` marks where lines are left out). A block that is an example of use rather than a quote
 * follows an `<!-- example: why -->` line. Compared without whitespace and trailing commas, so
 * that Prettier's line breaks in the source do not count, and nothing else is forgiven.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const CONTRIBUTING = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');

const squeeze = (code: string) =>
  code
    .replace(/\s+/g, '')
    .replace(/,(?=[)}\]])/g, '')
    .replace(/,$/, '');

interface Block {
  line: number;
  code: string;
  example: boolean;
}

function tsBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), example: /^<!-- example: .+ -->$/.test(lines[before] ?? '') });
    i = end;
  }
  return blocks;
}

describe("CONTRIBUTING.md's code is the source's", () => {
  const source = squeeze(
    sourceFiles()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n'),
  );
  const blocks = tsBlocks(CONTRIBUTING);

  it('has blocks to check, and marks at most a few as examples', () => {
    expect(blocks.length).toBeGreaterThan(5);
    expect(blocks.filter((b) => b.example).length).toBeLessThanOrEqual(2);
  });

  it('every ts block not marked as an example is in src/ as it is now (each part between `// ...` lines)', () => {
    const stale = blocks
      .filter((b) => !b.example)
      .flatMap((b) =>
        b.code
          .split(/^\s*\/\/ \.\.\.\s*$/m)
          .filter((part) => !source.includes(squeeze(part)))
          .map((part) => `CONTRIBUTING.md:${b.line}:\n${part.trim()}`),
      );
    expect(stale).toEqual([]);
  });

  it('notices a block that is not the source (the check can fail)', () => {
    expect(source.includes(squeeze('export function deleteMemberData(ctx: NotTheType) {}'))).toBe(false);
  });
});
