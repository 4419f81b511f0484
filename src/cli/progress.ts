import type { OutStream } from './io.js';

/**
 * A one-line progress bar for a terminal: redrawn in place with \r, no dependencies.
 * Off a terminal, callers print plain lines instead (see `isInteractive`).
 */
export function isInteractive(stream: OutStream, env: Record<string, string | undefined>): boolean {
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

function renderBar(done: number, total: number, width = 24, label = ''): string {
  const ratio = total <= 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * width);
  const percent = String(Math.round(ratio * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% ${done}/${total}${label ? `  ${label}` : ''}`;
}

export class ProgressBar {
  private lastLength = 0;

  constructor(
    private readonly stream: OutStream,
    private readonly total: number,
  ) {}

  update(done: number, label = ''): void {
    const line = renderBar(done, this.total, 24, label);
    const pad = Math.max(0, this.lastLength - line.length);
    this.stream.write(`\r${line}${' '.repeat(pad)}`);
    this.lastLength = line.length;
  }

  /** Ends the bar's line so that what follows starts on a fresh one. */
  done(): void {
    if (this.lastLength > 0) this.stream.write('\n');
    this.lastLength = 0;
  }
}
