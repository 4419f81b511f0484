import Database from 'better-sqlite3';
import { inExecutable, runtimeFile } from '../util/executable.js';

/** An addon loaded by process.dlopen: what better-sqlite3's `nativeBinding` option takes. */
let executableAddon: unknown;

/**
 * Opens a better-sqlite3 connection. From the npm package, better-sqlite3 finds the addon it ships;
 * in the single executable, the addon is an asset unpacked into the runtime folder and handed over
 * through `nativeBinding` (the executable's require loads built-in modules only).
 */
export function openSqlite(path: string, options: Database.Options = {}): Database.Database {
  if (!inExecutable) return new Database(path, options);
  if (!executableAddon) {
    const addon = { exports: {} };
    process.dlopen(addon, runtimeFile('better_sqlite3.node'));
    executableAddon = addon.exports;
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- @types/better-sqlite3 7.6 types nativeBinding as a path; better-sqlite3 13 also takes the addon object (lib/binding.js)
  return new Database(path, { ...options, nativeBinding: executableAddon as string });
}
