/** Minimal ANSI styling, only on a terminal and never with NO_COLOR. */
import type { OutStream } from './io.js';

const enabled = (stream: OutStream) => Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';

const wrap =
  (open: number, close: number) =>
  (text: string, stream: OutStream = process.stdout) =>
    enabled(stream) ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export const bold = wrap(1, 22);
export const dim = wrap(2, 22);
export const red = wrap(31, 39);
export const green = wrap(32, 39);
export const yellow = wrap(33, 39);
