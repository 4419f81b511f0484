import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDir } from '../../../src/util/make-dir.js';
import { tempDir } from '../../helpers/temp.js';

describe('makeDir: mkdir -p with a bound', () => {
  it('makes every missing folder, with the mode, and accepts one that exists', () => {
    const dir = join(tempDir(), 'a', 'b', 'c');
    makeDir(dir, 0o700);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    makeDir(dir, 0o700);
  });

  it('a file in the way is ENOTDIR', () => {
    const file = join(tempDir(), 'f');
    writeFileSync(file, '');
    expect(() => makeDir(join(file, 'x'), 0o700)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it.runIf(process.platform === 'linux')(
    'a folder that cannot hold a child (/proc/PID) throws ENOENT at once, where recursive mkdir spins',
    () => {
      expect(() => makeDir(`/proc/${process.pid}/.scanctl`, 0o700)).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'mkdir' }));
    },
  );
});
