import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/**
 * A small tmpfs of its own (root only: CI and the dev container run as root), for a disk that
 * really fills: `fill()` takes every free byte with a file, `free()` removes it. `unmount()` must
 * run before the temporary folder is removed. Null, with the reason, when it cannot be mounted.
 */
export interface SmallDisk {
  dir: string;
  fill(): void;
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKiB = 4096): SmallDisk | string {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'a tmpfs needs Linux and root';
  const dir = join(tempDir('scanctl-disk-'), 'disk');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // Whatever is left below a block.
        try {
          for (;;) writeSync(fd, block, 0, 512);
        } catch {
          // Full.
        }
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount: () => execFileSync('umount', [dir], { stdio: 'pipe' }),
  };
}
