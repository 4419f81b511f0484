import { formatDuration } from '../../../clock/duration.js';
import type { ClockResponse } from '../../../contract/control.js';

/**
 * The emulator's time and how far it is from the machine's: measured from `now` rather than taken
 * from `offset_ms`, since a frozen or `--clock-start` clock has its own base (it can be behind).
 */
export function renderClock(c: ClockResponse, realNowMs = Date.now()): string {
  const apart = Math.round((Date.parse(c.now) - realNowMs) / 1000) * 1000;
  const relation = apart === 0 ? 'real time' : `real time ${apart > 0 ? '+' : '-'} ${formatDuration(Math.abs(apart))}`;
  return `${c.now}  (${relation}${c.played ? `; played ${c.played} due moment${c.played === 1 ? '' : 's'}` : ''})`;
}
