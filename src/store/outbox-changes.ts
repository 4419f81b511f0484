/** What the outbox announces to the engine of the same store (it kicks the dispatcher, emits on the bus). */
export type OutboxChange = { kind: 'queued'; deliveryId: string } | { kind: 'cancelled'; deliveryIds: string[] };
export type OutboxListener = (change: OutboxChange) => void;

/**
 * The subscribers to one store's outbox, made with the store (`store.outbox`): whoever writes
 * deliveries through the store and whoever dispatches them meet here, and nothing outlives the store.
 */
export class OutboxChanges {
  private readonly listeners = new Set<OutboxListener>();

  /** Subscribes to changes of this outbox; returns the unsubscribe function. */
  subscribe(listener: OutboxListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many subscribe now. */
  get size(): number {
    return this.listeners.size;
  }

  /** Tells every subscriber, on the next turn: the caller is inside its transaction, let it commit (or roll back) before anyone looks. */
  announce(change: OutboxChange): void {
    if (this.listeners.size === 0) return;
    setImmediate(() => {
      for (const listener of this.listeners) listener(change);
    });
  }
}
