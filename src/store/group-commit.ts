import type { Db } from './db.js';
import { storageCondition } from './storage-condition.js';

/**
 * Group commit: the work items queued in the same turn of the event loop run in ONE transaction,
 * so under concurrent load the WAL is written once per group instead of once per item. Each item's
 * promise settles only after that transaction has committed: nothing acknowledged can be lost.
 * The common case runs the group without a savepoint per item; when an item throws (rolling the
 * group back), the group runs again with each item in its own savepoint, so it fails alone.
 */
export interface GroupCommit {
  /** Runs `work` (synchronous statements only) in this turn's group; resolves with its value after the commit. */
  run<R>(work: () => R): Promise<R>;
  /** Commits what is queued now, synchronously (before the database closes). */
  flush(): void;
}

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createGroupCommit(db: Db): GroupCommit {
  let queue: Queued[] = [];
  // Transaction functions are built once: better-sqlite3's db.transaction() is not free per call.
  const together = db.transaction((items: Queued[]): Outcome[] => items.map((item) => ({ ok: true, value: item.work() })));
  // Nested in the group's transaction, better-sqlite3 runs this as a savepoint.
  const alone = db.transaction((item: Queued) => item.work());
  const oneByOne = db.transaction((items: Queued[]): Outcome[] =>
    items.map((item) => {
      try {
        return { ok: true, value: alone(item) };
      } catch (error) {
        // A full disk or an I/O error is not this item's fault: SQLite rolled the group back; it fails whole.
        if (storageCondition(error)) throw error;
        return { ok: false, error };
      }
    }),
  );

  const flush = (): void => {
    const items = queue;
    queue = [];
    if (items.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = together(items);
    } catch (error) {
      if (storageCondition(error)) {
        for (const item of items) item.reject(error);
        return;
      }
      try {
        outcomes = oneByOne(items);
      } catch (error) {
        // The commit itself failed: nothing of the group was stored.
        for (const item of items) item.reject(error);
        return;
      }
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? items[i]!.resolve(outcome.value) : items[i]!.reject(outcome.error)));
  };

  return {
    flush,
    run<R>(work: () => R): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the queue holds works of every R; each resolve gets its own work's value
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      });
    },
  };
}
