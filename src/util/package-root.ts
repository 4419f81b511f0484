import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executableAssetText, inExecutable, runtimeFolder } from './executable.js';

let root: string | null = null;

/**
 * A file of the installed scanctl package (package.json, fixtures/...). Found by walking up from
 * this module, so it holds whether the code runs from src/ (tests), from dist/ (tsc) or from the
 * bundled CLI in dist/bundle/, where every module shares one import.meta.url. In the single
 * executable, the package's files are its assets, unpacked once into a runtime folder.
 */
export function packagePath(...parts: string[]): string {
  if (root === null && inExecutable) root = runtimeFolder();
  if (root === null) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures')))) {
      const up = dirname(dir);
      if (up === dir) throw new Error(`scanctl: cannot find its package root above ${fileURLToPath(import.meta.url)}`);
      dir = up;
    }
    root = dir;
  }
  return join(root, ...parts);
}

/** The installed package's version (package.json). */
export function packageVersion(): string {
  // The executable reads its package.json asset: no command unpacks the runtime folder for this.
  const text = inExecutable ? executableAssetText('package.json') : readFileSync(packagePath('package.json'), 'utf8');
  const pkg: unknown = JSON.parse(text);
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  if (typeof version !== 'string') throw new Error(`${packagePath('package.json')} names no version`);
  return version;
}
