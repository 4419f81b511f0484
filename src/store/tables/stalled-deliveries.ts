/**
 * Deliveries in flight in the database whose retry time could not be written (the store refused
 * the write, e.g. a full disk): each is due again at the time kept here, so that an attempt whose
 * outcome could not be recorded is never made again sooner than its retry gap (CHOICE-9). The row
 * stays 'in_flight', which is true: after a restart (or kill -9) it is sent again, as the outbox wants.
 */
export class StalledDeliveries {
  private readonly dueAt = new Map<string, number>();

  add(id: string, at: number): void {
    this.dueAt.set(id, at);
  }
  delete(id: string): void {
    this.dueAt.delete(id);
  }
  clear(): void {
    this.dueAt.clear();
  }
  /** The earliest time one of them is due again, or null. */
  earliest(): number | null {
    let earliest: number | null = null;
    for (const at of this.dueAt.values()) if (earliest === null || at < earliest) earliest = at;
    return earliest;
  }
  /** Takes (and forgets) up to `limit` of those due at `now`. */
  takeDue(now: number, limit: number): string[] {
    const ids: string[] = [];
    for (const [id, at] of this.dueAt) {
      if (ids.length === limit) break;
      if (at > now) continue;
      ids.push(id);
      this.dueAt.delete(id);
    }
    return ids;
  }
}
