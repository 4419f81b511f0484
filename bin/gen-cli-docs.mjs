// Writes docs/cli/ from the built program (npm run docs:cli builds first): one Markdown page per
// top-level command and an index, rendered by src/cli/reference-docs.ts. Pages of commands that
// no longer exist are removed. test/unit/cli/reference-docs.test.ts fails when docs/cli/ is stale.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../dist/cli/program.js';
import { processIo } from '../dist/cli/io.js';
import { renderCliReference } from '../dist/cli/reference-docs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = `${root}docs/cli`;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

const pages = renderCliReference(await buildProgram(version, processIo()));
mkdirSync(outDir, { recursive: true });
const wanted = new Set(pages.map((page) => page.file));
for (const file of readdirSync(outDir)) if (file.endsWith('.md') && !wanted.has(file)) rmSync(`${outDir}/${file}`);
let changed = 0;
for (const page of pages) {
  const path = `${outDir}/${page.file}`;
  let before = null;
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    // Not written yet: a new page.
  }
  if (before !== page.content) {
    writeFileSync(path, page.content);
    changed += 1;
  }
}
process.stdout.write(`docs/cli: ${pages.length} pages, ${changed} changed\n`);
