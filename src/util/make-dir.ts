import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from './caught.js';

/** How many missing folders above one are created at most: far more than any real path needs. */
const MAX_DEPTH = 64;

/**
 * `mkdir -p` with a bound. Node's `mkdirSync(path, { recursive: true })` spins for ever where a
 * folder exists but cannot hold a child (under /proc: EEXIST for the parent, ENOENT for the child,
 * again), and says ENOENT on a read-only mount. Here each folder is made once, from the top down;
 * a failure is thrown with its own code (EROFS, EACCES, ENOENT, ENOTDIR).
 */
export function makeDir(path: string, mode: number): void {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    const found = statSync(current, { throwIfNoEntry: false });
    if (found) {
      if (!found.isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${current}'`), {
          code: 'ENOTDIR',
          syscall: 'mkdir',
          path: current,
        });
      break;
    }
    if (missing.length === MAX_DEPTH || dirname(current) === current) break;
    missing.push(current);
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by another process: fine if it is a folder.
      if (errorCode(error) !== 'EEXIST' || !statSync(folder).isDirectory()) throw error;
    }
  }
}
