import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How the user types scanctl, for the lines that say what to run next: `scanctl` when it is on
 * their PATH, else `npx scanctl` (also when npm started it: npx and npm scripts put the package's
 * bin folder on the PATH they give it, not on the user's shell's).
 */
export function invocation(env: Readonly<Record<string, string | undefined>>): string {
  if (env.npm_command) return 'npx scanctl';
  const names = process.platform === 'win32' ? ['scanctl.cmd', 'scanctl.exe', 'scanctl'] : ['scanctl'];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return 'scanctl';
      } catch {
        // not here
      }
    }
  }
  return 'npx scanctl';
}
