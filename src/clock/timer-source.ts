/** Anything that has work due at a virtual time (webhook retries, for one); the scheduler plays it. */
export interface TimerSource {
  /** The earliest virtual time at which work is due, or null when nothing is scheduled. */
  nextDueAt(): number | null;
  /** Performs everything due at the clock's current time. */
  runDue(): Promise<void>;
  /** The clock is advancing to `target` (null: the advance ended): work that arrives meanwhile may wait for its end. */
  advancing?(target: number | null): void;
  /**
   * Resolves once the work it has in flight is done (a webhook attempt on the wire, its outcome
   * recorded): that outcome may schedule more within an advance's window (the next retry).
   */
  settle?(): Promise<void>;
}
