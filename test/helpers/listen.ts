import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { scanctlArgv } from './cli.js';

/**
 * `scanctl webhook listen` as a child process (not a terminal), its stdout read line by line.
 * `line(p)` resolves with the first line (printed or to come) that satisfies p, `waitLines(n)`
 * once n lines are out: both on the lines as they arrive, never by polling.
 */
export function spawnListen(args: string[], cleanups: Array<() => Promise<unknown>>) {
  const child = spawn(...scanctlArgv(['webhook', 'listen', ...args]), {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  reader.on('line', (l) => lines.push(l));
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const until = <T>(done: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = done();
        if (value === undefined) return false;
        reader.off('line', check);
        resolve(value);
        return true;
      };
      if (check()) return;
      reader.on('line', check);
      void exited.then(() => reject(new Error(`listen exited before ${what}; stdout:\n${lines.join('\n')}\nstderr: ${stderr}`)));
    });
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    line: (test: (l: string) => boolean) => until(() => lines.find(test), 'the expected line'),
    waitLines: (n: number) => until(() => (lines.length >= n ? lines : undefined), `${n} lines`),
  };
}
