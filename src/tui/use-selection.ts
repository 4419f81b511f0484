import { useRef, useState } from 'react';
import { windowStart } from './layout.js';
import type { DeliveryLine } from './use-deliveries.js';

export interface Selection {
  /** The selected delivery. */
  selectedId: string | null;
  /** Whether the selection follows the newest delivery (until the user picks one). */
  following: boolean;
  index: number;
  /** The first row of the visible window. */
  start: number;
  /** Picks the delivery `delta` rows away from the selected one in `lines`: from then on it stays selected whatever arrives. */
  move(lines: DeliveryLine[], delta: number): void;
  /** Back to following the newest delivery. */
  follow(): void;
}

/**
 * The selection, keyed by delivery id (not by position), and the window of `size` rows that shows
 * it. Until the user picks a delivery, the selection is the newest one (the view follows arrivals).
 */
export function useSelection(lines: DeliveryLine[], size: number): Selection {
  const [chosen, setChosen] = useState<string | null>(null);
  const start = useRef(0);
  const selectedId = chosen ?? lines[0]?.deliveryId ?? null;
  const index = Math.max(
    0,
    lines.findIndex((l) => l.deliveryId === selectedId),
  );
  start.current = windowStart(start.current, index, lines.length, size);
  const move = (current: DeliveryLine[], delta: number) => {
    if (current.length === 0) return;
    setChosen((id) => {
      const at = Math.max(
        0,
        current.findIndex((l) => l.deliveryId === (id ?? current[0]!.deliveryId)),
      );
      return current[Math.min(current.length - 1, Math.max(0, at + delta))]!.deliveryId;
    });
  };
  return { selectedId, following: chosen === null, index, start: start.current, move, follow: () => setChosen(null) };
}
