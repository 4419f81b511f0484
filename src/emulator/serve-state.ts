import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { CHOICES } from '../contract/choices.js';
import { makeDir } from '../util/make-dir.js';
import { parseJson } from '../contract/parse-json.js';
import { errorCode } from '../util/caught.js';

// Light on purpose: client commands read this without loading the emulator.
export const DEFAULT_PORT = 7226; // "SCAN" on a phone keypad; clashes with nothing common.
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DB = '.scanctl/scanctl.db';
export const SERVE_RECORD_FILE = '.scanctl/serve.json';

/** What a running `scanctl serve` records so that other commands in the folder (and below it) find it. */
export const ServeState = z.object({ pid: z.number().int().positive(), base_url: z.string(), db: z.string() });
export type ServeState = z.infer<typeof ServeState>;

/**
 * Each serve writes its own record (serve-PID.json) and points serve.json at itself; on stop it
 * removes its own record and hands serve.json to the newest serve still running there, so that
 * two serves in one folder never delete each other's file.
 */
export function writeServeState(file: string, state: ServeState): void {
  makeDir(dirname(file), CHOICES.privateDirMode);
  const text = `${JSON.stringify(state, null, 2)}\n`;
  writeFileSync(ownFile(file, state.pid), text);
  writeFileSync(file, text);
  removeDeadRecords(file);
}

export function clearServeState(file: string, pid = process.pid): void {
  try {
    rmSync(ownFile(file, pid), { force: true });
    removeDeadRecords(file);
    if (readState(file)?.pid !== pid) return;
    const next = liveRecords(file).at(-1);
    if (next) writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
    else rmSync(file, { force: true });
  } catch {
    // Never written (the folder could not hold it), or already gone: nothing to clear.
  }
}

const ownFile = (file: string, pid: number) => join(dirname(file), `${basename(file, '.json')}-${pid}.json`);

/** The record in `file`, or null when there is none or it is not one (half written, edited by hand). */
function readState(file: string): ServeState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseJson(ServeState, text);
  return parsed.ok ? parsed.value : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

/** The serve-PID.json records beside `file`. */
function recordFiles(file: string): string[] {
  const prefix = `${basename(file, '.json')}-`;
  try {
    return readdirSync(dirname(file))
      .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
      .map((name) => join(dirname(file), name));
  } catch {
    return [];
  }
}

/** A serve killed with -9 left its record: the next serve to start or stop there removes it. */
function removeDeadRecords(file: string): void {
  for (const path of recordFiles(file)) {
    const pid = Number(/-(\d+)\.json$/.exec(path)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    try {
      rmSync(path, { force: true });
    } catch {
      // Left for the next start or stop: discovery skips a dead record anyway.
    }
  }
}

/** The records of serves still running beside `file`, oldest first (the last one started is last). */
function liveRecords(file: string): ServeState[] {
  return recordFiles(file)
    .map((path) => ({ state: readState(path), written: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .filter((record): record is { state: ServeState; written: number } => record.state !== null && isAlive(record.state.pid))
    .sort((a, b) => a.written - b.written)
    .map((record) => record.state);
}

/** What a command finds looking upward from `dir`, as git does: a running emulator, or a stale record. */
export type FoundServe = { running: true; state: ServeState; file: string } | { running: false; state: ServeState; file: string };

export function findServeState(dir: string): FoundServe | null {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, SERVE_RECORD_FILE);
    const state = readState(file);
    if (state) {
      if (isAlive(state.pid)) return { running: true, state, file };
      const other = liveRecords(file).at(-1);
      return other ? { running: true, state: other, file } : { running: false, state, file };
    }
    if (dirname(current) === current) return null;
  }
}

/** The running emulator recorded in `dir` or above it. */
export function readServeState(dir = process.cwd()): ServeState | null {
  const found = findServeState(dir);
  return found?.running ? found.state : null;
}
