import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/**
 * A fresh folder for one test file, removed after the file's last test (test/setup.ts).
 * Under the run's own temporary folder (test/global-setup.ts points TMPDIR there), so the
 * run's teardown can tell whether anything was left behind.
 */
export function tempDir(prefix = 'scanctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder tempDir made in this file. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
