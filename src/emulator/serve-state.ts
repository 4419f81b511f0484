import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Light on purpose: client commands read this without loading the emulator.
export const DEFAULT_PORT = 7226; // "SCAN" on a phone keypad; clashes with nothing common.
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DB = '.scanctl/scanctl.db';
export const STATE_FILE = '.scanctl/serve.json';

/** What a running `scanctl serve` records so that other commands in the same folder find it. */
export interface ServeState {
  pid: number;
  base_url: string;
  db: string;
}

export function writeServeState(file: string, state: ServeState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

export function clearServeState(file: string): void {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as ServeState;
    if (state.pid === process.pid) rmSync(file, { force: true });
  } catch {
    // Nothing to clear.
  }
}

/** The running emulator recorded in `dir`, when its process is still alive. */
export function readServeState(dir = process.cwd()): ServeState | null {
  try {
    const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as ServeState;
    process.kill(state.pid, 0);
    return state;
  } catch {
    return null;
  }
}
