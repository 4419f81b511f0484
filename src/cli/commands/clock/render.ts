import { formatDuration } from '../../../clock/duration.js';
import type { ClockResponse } from '../../../contract/control.js';

export const renderClock = (c: ClockResponse) =>
  `${c.now}  (${c.offset_ms === 0 ? 'real time' : `real time + ${formatDuration(Math.round(c.offset_ms / 1000) * 1000)}`}${c.played ? `; played ${c.played} due moment${c.played === 1 ? '' : 's'}` : ''})`;
