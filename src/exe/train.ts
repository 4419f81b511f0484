// The executable's training run (bin/build-exe.mjs): the commands a developer runs most, in one
// process, so that V8's code cache made after it holds the functions they compile, not only the
// bundle's top level (docs/executable.md). Run by the loader when SCANCTL_EXE_TRAIN names a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { processIo, type CliIo, type OutStream } from '../cli/io.js';
import { runCli } from '../cli/main.js';

const SECRET = 'sk_test_demoSecretKey00000000000001';

class Captured implements OutStream {
  text = '';
  onWrite = (): void => undefined;
  write(chunk: string): boolean {
    this.text += chunk;
    this.onWrite();
    return true;
  }
}

/** A CliIo on buffers, in `cwd`, whose Ctrl+C is `interrupt()`. */
function trainingIo(cwd: string) {
  const stdout = new Captured();
  const stderr = new Captured();
  const listeners = new Set<() => void>();
  const io: CliIo = {
    ...processIo(),
    stdout,
    stderr,
    stdin: Readable.from([]),
    // The machine's, without scanctl's own variables (SCANCTL_EXE_TRAIN among them: exec's command does not train).
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SCANCTL_'))), NO_COLOR: '1' },
    cwd,
    onInterrupt(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { io, stdout, stderr, interrupt: () => [...listeners].forEach((listener) => listener()) };
}

async function run(args: string[], cwd: string): Promise<string> {
  const { io, stdout, stderr } = trainingIo(cwd);
  const code = await runCli(args, io);
  if (code !== 0) throw new Error(`training: scanctl ${args.join(' ')} exited ${code}: ${stderr.text.trim()}`);
  return stdout.text;
}

/** serve with a mint, a clock read and a simulated scan against it; exec; then every command's module. */
export async function train(): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), 'scanctl-train-'));
  const serve = trainingIo(cwd);
  const serving = runCli(['serve', '--port', '0', '--db', join(cwd, 'emulator.db'), '--json'], serve.io);
  try {
    const url = await readyUrl(serve.stdout, serving);
    await run(['--base-url', url, 'session', 'mint', '--key', SECRET, '--user', 'member_1', '--json'], cwd);
    await run(['--base-url', url, 'clock', 'show', '--json'], cwd);
    await run(['--base-url', url, 'scan', 'simulate', '--user', 'member_1', '--json'], cwd);
    serve.interrupt();
    if ((await serving) !== 0) throw new Error(`training: serve exited non-zero: ${serve.stderr.text.trim()}`);
    // Its command is this executable's --version: there on every platform (Windows has no `true`).
    await run(['exec', '--db', ':memory:', '--', process.execPath, '--version'], cwd);
    // The help of the program loads every command's module.
    await run(['--help'], cwd);
  } finally {
    // A step that failed leaves serve running: stopped before its folder goes (Windows holds open files).
    serve.interrupt();
    await serving.catch(() => undefined);
    rmSync(cwd, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The URL of serve's ready line (`--json`: one object with `base_url`); an error if serve ends first. */
function readyUrl(stdout: Captured, serving: Promise<number>): Promise<string> {
  return new Promise((resolve, reject) => {
    stdout.onWrite = () => {
      const match = /"base_url":"([^"]+)"/.exec(stdout.text);
      if (match?.[1]) resolve(match[1]);
    };
    serving.then((code) => reject(new Error(`training: serve exited ${code} before it was ready: ${stdout.text}`)), reject);
  });
}
