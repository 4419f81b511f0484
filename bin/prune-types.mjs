// Keeps in dist/types/ only the declarations the package's two entries reach (run by `npm run build`,
// after tsc writes a .d.ts for every module of src/ there): index.d.ts and verify.d.ts, and every
// .d.ts they import, at any depth. The package ships dist/types/ whole (package.json `files`), so a
// user gets the types of what they can import and nothing of the CLI, the console or the emulator's
// inside. test/pack/package-files.test.ts checks the shipped set is closed and all reached.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const types = fileURLToPath(new URL('../dist/types/', import.meta.url));
const ENTRIES = ['index.d.ts', 'verify.d.ts'];
// `from './x.js'`, `import('./x.js')` and `import './x.js'`: tsc writes relative specifiers with .js.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)\.js['"]/g;

const reached = new Set();
const queue = [...ENTRIES];
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  const path = join(types, file);
  if (!existsSync(path)) throw new Error(`prune-types: ${file} is imported but tsc wrote no ${path}`);
  reached.add(file);
  for (const [, specifier] of readFileSync(path, 'utf8').matchAll(RELATIVE_IMPORT)) {
    queue.push(relative(types, join(types, dirname(file), `${specifier}.d.ts`)));
  }
}

function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (!reached.has(relative(types, path))) {
      rmSync(path);
    }
  }
}
prune(types);
