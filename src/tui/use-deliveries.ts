import { useEffect, useState } from 'react';
import type { WebhookStreamEvent } from '../contract/webhook-stream.js';

export type Subscribe = (listener: (event: WebhookStreamEvent) => void) => () => void;

/** The latest state of each delivery seen on the stream, newest delivery first. */
export interface DeliveryLine {
  deliveryId: string;
  latest: WebhookStreamEvent;
  /** Every finished attempt of this delivery, in order. */
  attempts: WebhookStreamEvent[];
}

/** Folds one stream event into the lines (pure: the hook and the tests share it). */
export function foldDelivery(lines: DeliveryLine[], event: WebhookStreamEvent): DeliveryLine[] {
  const index = lines.findIndex((l) => l.deliveryId === event.delivery_id);
  const previous = index >= 0 ? lines[index]! : { deliveryId: event.delivery_id, latest: event, attempts: [] };
  const next: DeliveryLine = {
    deliveryId: event.delivery_id,
    latest: event,
    attempts: event.object === 'delivery.attempt_finished' ? [...previous.attempts, event] : previous.attempts,
  };
  if (index >= 0) return lines.map((l, i) => (i === index ? next : l));
  return [next, ...lines];
}

/** Holds the deliveries seen on the live stream. */
export function useDeliveries(subscribe: Subscribe): DeliveryLine[] {
  const [lines, setLines] = useState<DeliveryLine[]>([]);
  useEffect(() => subscribe((event) => setLines((current) => foldDelivery(current, event))), [subscribe]);
  return lines;
}
