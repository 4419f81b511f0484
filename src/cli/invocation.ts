import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';

/** How this scanctl was started: the launcher's path (`process.argv[1]`: bin/scanctl.js, a symlink to it, the executable) and the folder it ran in. */
export interface Launch {
  launcher?: string;
  cwd?: string;
}

const realpath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The first `scanctl` the shell would find on PATH, or null. */
function onPath(env: Readonly<Record<string, string | undefined>>): string | null {
  const names = process.platform === 'win32' ? ['scanctl.cmd', 'scanctl.exe', 'scanctl'] : ['scanctl'];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** A word a POSIX shell reads as it is, else single-quoted. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * How the user types scanctl, for the lines that say what to run next: `npx scanctl` when npm
 * started it (npx and npm scripts put the package's bin folder on the PATH they give it, not on
 * the user's shell's); `scanctl` when the first scanctl on PATH is this one; else the path it was
 * started from (`node_modules/.bin/scanctl`, `dist/exe/scanctl`, `node bin/scanctl.js`), relative
 * to the working folder when under it; `npx scanctl` when that is not known.
 */
export function invocation(env: Readonly<Record<string, string | undefined>>, launch: Launch = {}): string {
  if (env.npm_command) return 'npx scanctl';
  const found = onPath(env);
  const { launcher, cwd } = launch;
  if (found && (!launcher || realpath(found) === realpath(launcher))) return 'scanctl';
  if (!launcher) return 'npx scanctl';
  const inside = cwd ? relative(cwd, launcher) : launcher;
  const shown = !cwd || inside.startsWith('..') || isAbsolute(inside) ? launcher : inside.includes('/') ? inside : `./${inside}`;
  // A script file runs with node whichever way it was started: `node bin/scanctl.js` always works.
  return /\.[cm]?js$/.test(shown) ? `node ${shellWord(shown)}` : shellWord(shown);
}
