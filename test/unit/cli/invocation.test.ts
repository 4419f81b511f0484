import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocation } from '../../../src/cli/invocation.js';
import { tempDir } from '../../helpers/temp.js';

/** An executable file at `path` (its folders made). */
function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('how the banner says to run scanctl', () => {
  it.runIf(process.platform !== 'win32')(
    'scanctl when it is on the PATH; npx scanctl when it is not, or when npm (npx, a script) started it',
    () => {
      const empty = tempDir();
      const bin = tempDir();
      executable(join(bin, 'scanctl'));
      expect(invocation({ PATH: `${empty}:${bin}` })).toBe('scanctl');
      expect(invocation({ PATH: empty })).toBe('npx scanctl');
      expect(invocation({})).toBe('npx scanctl');
      expect(invocation({ PATH: bin, npm_command: 'exec' })).toBe('npx scanctl');
    },
  );

  it.runIf(process.platform !== 'win32')(
    'the command the user ran: scanctl when PATH finds this one, else the launcher it was started from, relative to the working folder',
    () => {
      const project = tempDir();
      const pkg = join(project, 'node_modules', 'scanctl', 'bin', 'scanctl.js');
      executable(pkg);
      const dotBin = join(project, 'node_modules', '.bin', 'scanctl');
      mkdirSync(join(dotBin, '..'));
      symlinkSync('../scanctl/bin/scanctl.js', dotBin);
      const exe = executable(join(project, 'dist', 'exe', 'scanctl'));
      const other = tempDir();
      executable(join(other, 'scanctl'));

      // node_modules/.bin/scanctl, typed as such: not on PATH, or PATH's scanctl is another one.
      expect(invocation({ PATH: '' }, { launcher: dotBin, cwd: project })).toBe('node_modules/.bin/scanctl');
      expect(invocation({ PATH: other }, { launcher: dotBin, cwd: project })).toBe('node_modules/.bin/scanctl');
      // From another folder: the whole path.
      expect(invocation({ PATH: '' }, { launcher: dotBin, cwd: other })).toBe(dotBin);
      // PATH's first scanctl is this one (a global install's symlink): scanctl.
      expect(invocation({ PATH: join(project, 'node_modules', '.bin') }, { launcher: pkg, cwd: other })).toBe('scanctl');
      // The single executable: process.argv[1] is its path.
      expect(invocation({ PATH: other }, { launcher: exe, cwd: project })).toBe('dist/exe/scanctl');
      expect(invocation({ PATH: join(project, 'dist', 'exe') }, { launcher: exe, cwd: project })).toBe('scanctl');
      // A script run by node (a clone's bin/scanctl.js), a launcher in the working folder itself, a path with a space.
      expect(invocation({}, { launcher: pkg, cwd: join(project, 'node_modules', 'scanctl') })).toBe('node bin/scanctl.js');
      expect(invocation({}, { launcher: exe, cwd: join(project, 'dist', 'exe') })).toBe('./scanctl');
      expect(invocation({}, { launcher: '/opt/my tools/scanctl', cwd: project })).toBe(`'/opt/my tools/scanctl'`);
      // npx or an npm script started it: what the user typed was npx (or npm run).
      expect(invocation({ npm_command: 'exec', PATH: '' }, { launcher: dotBin, cwd: project })).toBe('npx scanctl');
    },
  );
});
