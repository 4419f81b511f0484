import { fromRealTime } from '../../../clock/duration.js';
import type { ClockState } from '../../../contract/control.js';

/** The emulator's time and how far it is from the machine's. */
export function renderClock(c: ClockState, realNowMs = Date.now()): string {
  const relation = fromRealTime(Date.parse(c.now), realNowMs);
  return `${c.now}  (${relation}${c.played ? `; played ${c.played} due moment${c.played === 1 ? '' : 's'}` : ''})`;
}
