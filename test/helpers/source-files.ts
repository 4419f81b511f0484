import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** src/, as the repository checks of test/unit/repo/ read it. */
export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every TypeScript source file under `dir` (src/ by default), declarations left out: absolute paths. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
