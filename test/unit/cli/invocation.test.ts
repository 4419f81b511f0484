import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocation } from '../../../src/cli/invocation.js';
import { tempDir } from '../../helpers/temp.js';

describe('how the banner says to run scanctl', () => {
  it.runIf(process.platform !== 'win32')(
    'scanctl when it is on the PATH; npx scanctl when it is not, or when npm (npx, a script) started it',
    () => {
      const empty = tempDir();
      const bin = tempDir();
      writeFileSync(join(bin, 'scanctl'), '#!/bin/sh\n');
      chmodSync(join(bin, 'scanctl'), 0o755);
      expect(invocation({ PATH: `${empty}:${bin}` })).toBe('scanctl');
      expect(invocation({ PATH: empty })).toBe('npx scanctl');
      expect(invocation({})).toBe('npx scanctl');
      expect(invocation({ PATH: bin, npm_command: 'exec' })).toBe('npx scanctl');
    },
  );
});
