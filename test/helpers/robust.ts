import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { runCli, scanctlArgv } from './cli.js';
import { Condition } from './wait.js';

/** A built-CLI child process whose stdout is collected line by line while it runs. */
export interface StreamingCli {
  child: ChildProcess;
  lines: string[];
  /** Notified on every line of stdout, once it is in `lines`. */
  printed: Condition;
  /** Resolves once stdout has at least `count` lines (bounded). */
  waitLines(count: number, timeoutMs?: number): Promise<string[]>;
  stderr: () => string;
  exited: Promise<number | null>;
  /** SIGKILL (if still running) and wait for the exit. */
  kill(): Promise<number | null>;
}

export function spawnCli(args: string[], onLine?: (line: string) => void): StreamingCli {
  const child = spawn(...scanctlArgv(args), {
    env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', SCANCTL_SECRET_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const printed = new Condition();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const reader = createInterface({ input: child.stdout });
  reader.on('line', (line) => {
    lines.push(line);
    onLine?.(line);
    printed.notify();
  });
  // 'close' comes after the last line of stdout was read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    lines,
    printed,
    waitLines: (count, timeoutMs = 15_000) =>
      printed.until(
        () => `${count} lines of scanctl ${args.join(' ')} (got ${lines.length}): ${lines.join('\n')} ${stderr}`,
        () => lines.length >= count && lines,
        timeoutMs,
      ),
    stderr: () => stderr,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Runs the built CLI with --json and parses stdout; a non-zero exit fails with its stderr. */
export async function cliJson<T = any>(args: string[]): Promise<T> {
  const result = await runCli([...args, '--json']);
  if (result.code !== 0) throw new Error(`scanctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** GET on the emulator's control plane (cheap enough to read on every event, unlike a CLI child process). */
export async function control<T = any>(baseUrl: string, path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/_scanctl${path}`);
  if (res.status !== 200) throw new Error(`GET /_scanctl${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The `--json` lines of `scan simulate` (one summary per scan; a broken run adds one with `error`). */
export interface SimLine {
  object: 'simulated_scan';
  host_user_ref: string;
  scan_id: string | null;
  outcome: string;
  state: 'recorded' | 'refused';
  result: string;
  steps: Array<{ step: string; [key: string]: unknown }>;
  error?: { step: string; message: string };
}

export function simLines(lines: string[]): SimLine[] {
  // The simulated scans only: a run cut off by a kill ends with its error object (object: 'error').
  return lines
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as SimLine & { object?: string })
    .filter((l) => l.object === 'simulated_scan');
}

/** The scans whose POST /v1/scan-events outcome report the client saw acknowledged. */
export function acknowledgedScans(lines: SimLine[]): SimLine[] {
  return lines.filter((s) => s.scan_id && (s.state === 'recorded' || s.steps.some((step) => step.step === 'scan_reported')));
}
