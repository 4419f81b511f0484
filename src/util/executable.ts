import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { errorCode } from './caught.js';

/**
 * scanctl as one executable file (bin/build-exe.mjs, docs/executable.md): a Node single executable
 * application whose assets are the files the npm package reads from its folder (package.json,
 * fixtures/, the Ink view's ES modules) and better-sqlite3's addon for its platform.
 */
export const inExecutable: boolean = typeof __SCANCTL_EXECUTABLE__ !== 'undefined' && __SCANCTL_EXECUTABLE__;

/** Defined as true by the executable's build only (esbuild's `define`): no other build loads node:sea for this. */
declare const __SCANCTL_EXECUTABLE__: boolean | undefined;

/** node:sea, loaded only inside the executable. */
function sea(): typeof import('node:sea') {
  return process.getBuiltinModule('node:sea');
}

/** What bin/build-exe.mjs wrote into the executable's `manifest.json` asset. */
interface Manifest {
  /** A hash of every asset's name and bytes: the runtime folder's name. */
  id: string;
  /** Asset names, which are also their paths inside the runtime folder. */
  files: string[];
}

/** A file the build carried as an asset, as text (package.json, the manifest). */
export function executableAssetText(name: string): string {
  return sea().getAsset(name, 'utf8');
}

/**
 * Where the runtime folder was unpacked; memoized because it is the same folder for the life of the
 * process (the one documented module-level cache of this file).
 */
let unpacked: string | undefined;

/**
 * The folder that holds the executable's assets as files, unpacked on the first call of the first
 * run (later runs find it). Its name is the hash of its contents, so an executable of another build
 * never reads it; it is written under a temporary name and renamed, so a folder by that name is
 * always whole, and several executables starting at once each either rename theirs or find the
 * winner's. First choice the user's cache folder, then TMPDIR; neither writable is one line.
 */
export function runtimeFolder(): string {
  if (unpacked !== undefined) return unpacked;
  const manifest = readManifest();
  const failures: string[] = [];
  for (const base of runtimeBases()) {
    try {
      unpacked = unpackInto(base, manifest);
      return unpacked;
    } catch (error) {
      failures.push(`${base} (${errorCode(error) ?? String(error)})`);
    }
  }
  throw new RuntimeFolderError(
    `cannot unpack its runtime files (the SQLite addon, fixtures) into ${failures.join(' or ')}: make one writable, or set XDG_CACHE_HOME to a folder that is`,
  );
}

/** A file of the runtime folder. */
export function runtimeFile(name: string): string {
  return join(runtimeFolder(), name);
}

/** Neither the cache folder nor TMPDIR could take the runtime folder: the CLI prints the message alone. */
export class RuntimeFolderError extends Error {}

function readManifest(): Manifest {
  const value: unknown = JSON.parse(executableAssetText('manifest.json'));
  if (typeof value !== 'object' || value === null || !('id' in value) || !('files' in value))
    throw new Error('scanctl: the executable has no valid manifest');
  const { id, files } = value;
  if (typeof id !== 'string' || !Array.isArray(files) || !files.every((f) => typeof f === 'string')) {
    throw new Error('scanctl: the executable has no valid manifest');
  }
  return { id, files };
}

/** The user's cache folder (XDG_CACHE_HOME, else ~/.cache), then a folder of this user's in TMPDIR. */
function runtimeBases(): string[] {
  const bases: string[] = [];
  const home = safeHome();
  const cache = process.env.XDG_CACHE_HOME || (home ? join(home, '.cache') : undefined);
  if (cache) bases.push(join(cache, 'scanctl', 'exe'));
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  bases.push(join(tmpdir(), `scanctl-${uid}`, 'exe'));
  return bases;
}

function safeHome(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

function unpackInto(base: string, manifest: Manifest): string {
  mkdirSync(base, { recursive: true, mode: 0o700 });
  ownedByMe(base);
  const folder = join(base, manifest.id);
  if (isFolder(folder)) return folder;
  // pid and a high-resolution time: unique among the executables starting at once (node:crypto costs every start ~8 ms).
  const staging = join(base, `.${manifest.id}.${process.pid}.${process.hrtime.bigint()}`);
  try {
    for (const name of manifest.files) {
      const file = join(staging, name);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, new Uint8Array(sea().getRawAsset(name)), { mode: name.endsWith('.node') ? 0o700 : 0o600 });
    }
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another executable renamed its copy first: theirs is as whole as ours would have been.
    if ((errorCode(error) === 'ENOTEMPTY' || errorCode(error) === 'EEXIST') && isFolder(folder)) return folder;
    throw error;
  }
  return folder;
}

/**
 * The folder holds a native addon that the executable will load: one that another user could write
 * (a shared TMPDIR) is refused, so nobody can put their code in its place.
 */
function ownedByMe(folder: string): void {
  const stat = lstatSync(folder);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o022) !== 0)) {
    throw Object.assign(new Error(`${folder} is not a folder of this user's alone`), { code: 'not owned by this user alone' });
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
