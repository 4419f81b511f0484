import { useEffect, useState } from 'react';

export interface EmulatorClockState {
  /** The emulator's time (ISO), as last read. */
  time: string | null;
  /** How far the emulator's clock is ahead of real time, as of that read. */
  aheadMs: number;
}

/**
 * The emulator's current time, read through `read` now and every `intervalMs` (its clock can be
 * days ahead of real time, and `clock advance` moves it at any moment).
 */
export function useEmulatorClock(
  read: (() => Promise<string>) | undefined,
  initial: string | null,
  intervalMs = 1_000,
): EmulatorClockState {
  const [state, setState] = useState<EmulatorClockState>(() => ({
    time: initial,
    aheadMs: initial ? Date.parse(initial) - Date.now() : 0,
  }));
  useEffect(() => {
    if (!read) return;
    let live = true;
    const refresh = () =>
      read().then(
        (time) => live && setState({ time, aheadMs: Date.parse(time) - Date.now() }),
        () => undefined, // the stream's end reports a stopped emulator
      );
    void refresh();
    const timer = setInterval(() => void refresh(), intervalMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [read, intervalMs]);
  return state;
}
