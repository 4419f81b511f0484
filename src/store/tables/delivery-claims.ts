import type { DeliveryStatus } from '../../contract/webhooks.js';

/**
 * The deliveries this process's dispatcher has claimed and not yet finished: what the emulator
 * shows as in flight. Kept in memory, not in the database (migration 0008): marking each claim
 * 'in_flight' cost a transaction per claimed batch and five index entries per delivery, for a
 * state that a crash turns back into "due" anyway. The database holds a claimed delivery as it
 * was, pending and due, which is exactly what it is after a kill -9. Every read of a delivery's
 * status goes through shown() (a row) or statusClause() (a filter), so none sees the difference;
 * test/unit/store/tables/delivery-claims.test.ts fails on a read that does not. Only a state export,
 * which copies rows as stored, lists a claimed delivery as pending (what a restart makes of it).
 */
export class DeliveryClaims {
  private readonly ids = new Set<string>();
  /**
   * Deliveries due again no earlier than a time the database could not be told (the store refused
   * the write, e.g. a full disk): a claim skips them until then, so that an attempt whose outcome
   * could not be recorded is never made again sooner than its retry gap (CHOICE-9). Lost at a
   * restart, like the claims; the database then has them due, as after a crash.
   */
  private readonly deferred = new Map<string, number>();
  /**
   * Counts the times the state was replaced under the claims (an import, reset or restore): an
   * attempt claimed in an earlier epoch belongs to a state that is gone, and is neither sent nor recorded.
   */
  private replaced = 0;

  get epoch(): number {
    return this.replaced;
  }

  get size(): number {
    return this.ids.size;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
  }
  delete(id: string): void {
    this.ids.delete(id);
  }
  /** Not claimed again before `at`, whatever the database says. */
  defer(id: string, at: number): void {
    this.deferred.set(id, at);
  }
  /** Claimed again as the database says (a deferral is lifted). */
  undefer(id: string): void {
    this.deferred.delete(id);
  }
  /** When a deferred delivery is due, or undefined. */
  deferredUntil(id: string): number | undefined {
    return this.deferred.get(id);
  }
  get deferredCount(): number {
    return this.deferred.size;
  }
  /** What a claim at `now` skips, as a JSON array for SQL's json_each: the claimed ids and those deferred past `now`. */
  skipped(now: number): string {
    if (this.deferred.size === 0) return this.json();
    for (const [id, at] of this.deferred) if (at <= now) this.deferred.delete(id);
    return JSON.stringify([...this.ids, ...this.deferred.keys()]);
  }
  /** The claimed ids as a JSON array, for SQL's json_each. */
  json(): string {
    return this.ids.size === 0 ? '[]' : JSON.stringify([...this.ids]);
  }
  /** The state was replaced: every claim and deferral named a delivery of the old one. */
  forgetAll(): void {
    this.replaced += 1;
    this.ids.clear();
    this.deferred.clear();
  }
  /** Forgets every claim; returns the ids that were claimed. */
  clear(): string[] {
    const ids = [...this.ids];
    this.ids.clear();
    return ids;
  }

  /** The row as the emulator shows it: a claimed pending delivery is in flight. */
  shown<T extends { id: string; status: DeliveryStatus }>(row: T): T {
    if (row.status === 'pending' && this.ids.has(row.id)) row.status = 'in_flight';
    return row;
  }

  /**
   * The SQL condition for "this delivery shows as `status`" on the deliveries alias `d` (with
   * `plain`, the '+' that keeps the status off indexes, or ''), and its parameters: pending and
   * in flight are both stored as pending, told apart by this process's claims.
   */
  statusClause(status: DeliveryStatus, plain = ''): { sql: string; params: Record<string, string> } {
    if (status !== 'pending' && status !== 'in_flight') return { sql: `${plain}d.status = @status`, params: { status } };
    if (this.ids.size === 0) {
      return status === 'pending' ? { sql: `${plain}d.status = 'pending'`, params: {} } : { sql: '0', params: {} };
    }
    const claimed = this.json();
    const membership = status === 'in_flight' ? 'IN' : 'NOT IN';
    return { sql: `${plain}d.status = 'pending' AND d.id ${membership} (SELECT value FROM json_each(@claimed))`, params: { claimed } };
  }
}
