import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactElement } from 'react';

const ANSI = new RegExp(String.raw`\u001b\[[0-9;?]*[A-Za-z]`, 'g');

/** A terminal of a given size for ink: it keeps each frame and tells waiters, and can be resized. */
export class FakeStdout extends EventEmitter {
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame.replace(ANSI, ''));
    this.emit('frame');
    return true;
  };
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/**
 * Draws `tree` on a fake terminal. `frame(predicate)` resolves with the first frame (the current
 * one, or the next ones ink writes) that satisfies it: tests wait for what they expect, never for time.
 */
export function renderOnTerminal(tree: ReactElement, size: { columns: number; rows: number }) {
  const stdout = new FakeStdout(size.columns, size.rows);
  const stdin = new FakeStdin();
  const instance = render(tree, {
    stdout: stdout as never,
    stdin: stdin as never,
    stderr: new FakeStdout(size.columns, size.rows) as never,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const lastFrame = () => stdout.frames.at(-1) ?? '';
  const frame = (predicate: (frame: string) => boolean, what = 'the expected frame'): Promise<string> =>
    new Promise((resolve, reject) => {
      if (predicate(lastFrame())) return resolve(lastFrame());
      const timer = setTimeout(() => {
        stdout.off('frame', check);
        reject(new Error(`no frame showed ${what}; the last was:\n${lastFrame()}`));
      }, 5_000);
      function check() {
        if (!predicate(lastFrame())) return;
        clearTimeout(timer);
        stdout.off('frame', check);
        resolve(lastFrame());
      }
      stdout.on('frame', check);
    });
  return {
    stdin,
    lastFrame,
    frame,
    /** The frame's lines (ink's debug frames end without a newline). */
    lines: () => lastFrame().split('\n'),
    resize(columns: number, rows: number) {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    unmount: () => instance.unmount(),
  };
}
