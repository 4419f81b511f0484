import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../db.js';
import { z } from 'zod';
import { DeliveryStatus } from '../../contract/webhooks.js';
import type { ChaosHold } from '../../contract/chaos.js';
import {
  deliveryWithEventColumns,
  deliveryWithEventRow,
  withHold,
  type DeliveryFilter,
  type DeliveryOutcome,
  type DeliveryWithEvent,
} from './webhook-rows.js';
import { rowsOf, type CellsOf } from '../row-statements.js';
import { StalledDeliveries } from './stalled-deliveries.js';

const EVENT_COLUMNS = 'e.type AS event_type, e.scan_id AS scan_id, e.payload AS payload, e.created_at AS event_created_at';
const JOINED = `SELECT d.*, ${EVENT_COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id`;

/**
 * The outbox's deliveries. Times are ms on the emulator clock. A claim writes its deliveries
 * 'in_flight' in one transaction; the outcome moves them on. After a crash the engine's start
 * makes every 'in_flight' delivery due again (resetInFlight): it is sent again, same event id.
 */
export function deliveryStatements(db: Db) {
  const stalled = new StalledDeliveries();
  const insertDelivery = db.prepare<{
    id: string;
    event_id: string;
    app_id: string;
    host_user_ref: string;
    origin: string;
    now: number;
    due: number;
  }>(`
    INSERT INTO deliveries (id, event_id, app_id, host_user_ref, status, attempts, next_attempt_at, created_at, updated_at, origin)
    VALUES (@id, @event_id, @app_id, @host_user_ref, 'pending', 0, @due, @now, @now, @origin)`);
  // While the clock advances, a delivery queued meanwhile waits for the advance's end (see holdNewUntil).
  let newDueFrom: number | null = null;
  const held = new Set<string>();
  const heldJson = () => (held.size === 0 ? '[]' : JSON.stringify([...held]));
  // Counts the times the state was replaced (import, reset, restore): an attempt claimed in an
  // earlier epoch belongs to a state that is gone, and is neither sent nor recorded.
  let epoch = 0;
  // Its position among the app's deliveries (0-based), kept beside it (see ../derived.ts).
  const insertOrdinal = db.prepare<{ id: string; app_id: string }>(`
    INSERT INTO delivery_ordinals (delivery_id, app_id, ordinal)
    VALUES (@id, @app_id, coalesce((SELECT max(ordinal) + 1 FROM delivery_ordinals WHERE app_id = @app_id), 0))`);
  // Both rows or neither (a resend is queued outside any other transaction).
  const insertDeliveryTx = db.transaction(
    (row: { id: string; event_id: string; app_id: string; host_user_ref: string; origin: string }, now: number) => {
      insertDelivery.run({ ...row, now, due: newDueFrom === null ? now : Math.max(now, newDueFrom) });
      if (newDueFrom !== null) held.add(row.id);
      insertOrdinal.run({ id: row.id, app_id: row.app_id });
    },
  );
  const joined = rowsOf(db, deliveryWithEventRow);
  const deliveryById = joined.prepare<[string]>(`${JOINED} WHERE d.id = ?`);
  const byId = (id: string): DeliveryWithEvent | undefined => {
    const row = deliveryById.get(id);
    return row && withHold(row);
  };
  // Oldest due first, ties in the order queued: the partial index deliveries_pending (next_attempt_at, rowid)
  // gives this order as is, so LIMIT stops early (INDEXED BY: without statistics the planner would rather sort).
  const due = joined.prepare<{ now: number; limit: number; held: string }>(
    `${JOINED.replace('deliveries d', 'deliveries d INDEXED BY deliveries_pending')}
       WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@held))
       ORDER BY d.next_attempt_at, d.rowid LIMIT @limit`,
  );
  // While some apps wait for their receiver's turn, the others' due deliveries are read app by app
  // from their pending range of deliveries_app_status: skipping a waiting app's rows in due order
  // would walk all of them (20,000 due to one receiver cost two such walks per claimed batch).
  const dueOfApp = rowsOf(db, () => z.strictObject({ ...deliveryWithEventColumns(), seq: z.number().int() })).prepare<{
    app_id: string;
    now: number;
    limit: number;
    held: string;
  }>(
    `SELECT d.*, d.rowid AS seq, ${EVENT_COLUMNS} FROM deliveries d INDEXED BY deliveries_app_status JOIN events e ON e.id = d.event_id
     WHERE d.app_id = @app_id AND d.status = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@held))
     ORDER BY d.next_attempt_at, d.rowid LIMIT @limit`,
  );
  // min() of no rows is NULL: nothing is due.
  const dueAt = rowsOf(db, () => z.number().int().nullable());
  const nextDue = dueAt.pluck<[string]>(
    `SELECT min(next_attempt_at) FROM deliveries WHERE status = 'pending' AND id NOT IN (SELECT value FROM json_each(?))`,
  );
  const nextDueOfApp = dueAt.pluck<[string, string]>(
    `SELECT min(next_attempt_at) FROM deliveries WHERE app_id = ? AND status = 'pending' AND id NOT IN (SELECT value FROM json_each(?))`,
  );
  const ids = rowsOf(db, () => z.string());
  // The apps that have deliveries, one index seek each (a loose scan of deliveries_app_created): a handful.
  const appsWithDeliveries = ids.pluck(
    `WITH RECURSIVE apps(id) AS (
       SELECT min(app_id) FROM deliveries
       UNION ALL SELECT (SELECT min(app_id) FROM deliveries WHERE app_id > apps.id) FROM apps WHERE apps.id IS NOT NULL)
     SELECT id FROM apps WHERE id IS NOT NULL`,
  );
  const appsBut = (skip: readonly string[]) => appsWithDeliveries.all().filter((appId) => !skip.includes(appId));
  const markInFlight = db.prepare<{ id: string; now: number }>(
    "UPDATE deliveries SET status = 'in_flight', updated_at = @now WHERE id = @id AND status = 'pending'",
  );
  const status = rowsOf(db, () => DeliveryStatus).pluck<[string]>('SELECT status FROM deliveries WHERE id = ?');
  // An attempt's outcome applies to a delivery still in flight: one cancelled meanwhile is never resurrected.
  const finish = db.prepare<DeliveryOutcome & { now: number }>(
    `UPDATE deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at, last_status = @last_status,
       last_error = @last_error, chaos_hold = NULL, updated_at = @now
     WHERE id = @id AND status = 'in_flight'`,
  );
  const hold = db.prepare<{ id: string; next_attempt_at: number; chaos_hold: string; now: number }>(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = @next_attempt_at, chaos_hold = @chaos_hold, updated_at = @now
     WHERE id = @id AND status = 'in_flight'`,
  );
  const retryLater = db.prepare<{ id: string; next_attempt_at: number; now: number }>(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = @next_attempt_at, updated_at = @now
     WHERE id = @id AND status = 'in_flight'`,
  );
  const releaseInFlight = db.prepare<{ now: number }>(
    "UPDATE deliveries SET status = 'pending', next_attempt_at = @now, updated_at = @now WHERE status = 'in_flight'",
  );
  const cancelForMember = db.prepare<{ app_id: string; host_user_ref: string; now: number }>(`
    UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = 'cancelled by DELETE /v1/results', updated_at = @now
    WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND status IN ('pending', 'in_flight')`);
  const cancelledIds = ids.pluck<{ app_id: string; host_user_ref: string }>(
    "SELECT id FROM deliveries WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND status IN ('pending', 'in_flight')",
  );
  // WH-3: a scan.results_available not yet sent when its app switched results delivery off is never sent.
  const withdraw = db.prepare<{ id: string; reason: string; now: number }>(`
    UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = @reason, chaos_hold = NULL, updated_at = @now
    WHERE id = @id AND status IN ('pending', 'in_flight')`);
  const pendingResults = ids.pluck<[string]>(
    `SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.app_id = ? AND d.status IN ('pending', 'in_flight') AND e.type = 'scan.results_available'`,
  );

  /** The due rows not claimed yet, oldest due first, none of the apps in `skipApps`. */
  const dueRows = (now: number, limit: number, skipApps: readonly string[]): DeliveryWithEvent[] => {
    if (skipApps.length === 0) return due.all({ now, limit, held: heldJson() }).map(withHold);
    const merged = appsBut(skipApps).flatMap((appId) => dueOfApp.all({ app_id: appId, now, limit, held: heldJson() }));
    merged.sort((a, b) => a.next_attempt_at! - b.next_attempt_at! || a.seq - b.seq);
    return merged.slice(0, limit).map(({ seq: _seq, ...row }) => withHold(row));
  };
  // The stalled ones are in flight in the database already: they are taken again without a write.
  const claim = db.transaction((now: number, limit: number, skipApps: readonly string[]): DeliveryWithEvent[] => {
    const again = stalled.takeDue(now, limit).flatMap((id) => byId(id) ?? []);
    const fresh = dueRows(now, limit - again.length, skipApps);
    for (const row of fresh) {
      markInFlight.run({ id: row.id, now });
      row.status = 'in_flight';
    }
    return [...again.filter((row) => row.status === 'in_flight'), ...fresh];
  });
  const listStatements = new Map<string, BetterSqlite3.Statement<Record<string, string | number>, CellsOf<typeof deliveryWithEventRow>>>();

  return {
    insertDelivery: (
      row: { id: string; event_id: string; app_id: string; host_user_ref: string; origin: 'event' | 'resend' },
      now: number,
    ) => void insertDeliveryTx(row, now),
    /**
     * A clock advance to `at` is under way (null: it ended): deliveries queued until it ends are
     * stored due at `at` and claimed by nobody until then, so the advance plays the work that was
     * due in its window, not what keeps arriving meanwhile (under a steady load it would chase it
     * for ever, its target moving with real time). At its end they are due as stored.
     */
    holdNewUntil(at: number | null): void {
      newDueFrom = at;
      if (at === null) held.clear();
    },
    deliveryById: byId,
    deliveries(filter: DeliveryFilter): DeliveryWithEvent[] {
      const where: string[] = [];
      const params: Record<string, string | number> = { limit: filter.limit ?? 100 };
      // A scan or event names a handful of deliveries: find them by event (events_scan_id,
      // deliveries_event) and keep app and status as plain filters (the unary +), rather than
      // walk the app's whole outbox in date order looking for them.
      // A member of an app names a handful too: found by deliveries_user.
      const plain = filter.scan_id || filter.event_id || (filter.host_user_ref && filter.app_id) ? '+' : '';
      const member = filter.app_id
        ? 'd.rowid IN (SELECT rowid FROM deliveries WHERE app_id = @app_id AND host_user_ref = @host_user_ref)'
        : 'd.host_user_ref = @host_user_ref';
      const conditions: Array<[keyof DeliveryFilter, string]> = [
        ['app_id', `${plain}d.app_id = @app_id`],
        ['status', `${plain}d.status = @status`],
        ['scan_id', 'd.event_id IN (SELECT id FROM events WHERE scan_id = @scan_id)'],
        ['event_id', 'd.event_id = @event_id'],
        ['host_user_ref', member],
      ];
      for (const [name, condition] of conditions) {
        const value = filter[name];
        if (value === undefined || value === null || value === '') continue;
        where.push(condition);
        params[name] = value;
      }
      const sql = `${JOINED} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.created_at DESC, d.rowid DESC LIMIT @limit`;
      // Sixteen shapes of filter at most: each prepared once.
      let statement = listStatements.get(sql);
      if (!statement) listStatements.set(sql, (statement = joined.prepare<Record<string, string | number>>(sql)));
      return statement.all(params).map(withHold);
    },
    /** When the earliest due delivery not yet claimed (of an app not in `skipApps`) is due; null when none is queued. */
    nextDueAt(skipApps: readonly string[] = []): number | null {
      const skip = heldJson();
      const times = skipApps.length === 0 ? [nextDue.get(skip)] : appsBut(skipApps).map((appId) => nextDueOfApp.get(appId, skip));
      return [...times, stalled.earliest()].reduce<number | null>(
        (min, at) => (at == null ? min : min === null ? at : Math.min(min, at)),
        null,
      );
    },
    /**
     * Claims up to `limit` due deliveries, oldest due first, none of the apps in `skipApps` (theirs
     * wait for a receiver's turn): they are written in flight until their outcome is written.
     */
    claimDue: (now: number, limit: number, skipApps: readonly string[] = []): DeliveryWithEvent[] => claim(now, limit, skipApps),
    /** DEL-2: false once the delivery was cancelled (or its outcome written) since it was claimed. */
    isClaimed: (id: string): boolean => status.get(id) === 'in_flight',
    status: (id: string): DeliveryStatus | undefined => status.get(id),
    /** Records the outcome of a claimed delivery; false when it was cancelled meanwhile (never resurrected). */
    finish: (row: DeliveryOutcome, now: number): boolean => finish.run({ ...row, now }).changes > 0,
    hold: (id: string, nextAttemptAt: number, chaosHold: ChaosHold, now: number): boolean =>
      hold.run({ id, next_attempt_at: nextAttemptAt, chaos_hold: JSON.stringify(chaosHold), now }).changes > 0,
    /** A claimed delivery whose attempt could not be recorded is due again at `nextAttemptAt`. */
    retryLater(id: string, nextAttemptAt: number, now: number): boolean {
      try {
        return retryLater.run({ id, next_attempt_at: nextAttemptAt, now }).changes > 0;
      } catch (error) {
        // The store refuses writes (a full disk): the gap is kept in memory instead.
        stalled.add(id, nextAttemptAt);
        throw error;
      }
    },
    /** DEL-2: cancels the member's pending and in-flight deliveries (a claimed one is never sent after this); returns their ids. */
    cancelForMember(appId: string, hostUserRef: string, now: number): string[] {
      const ids = cancelledIds.all({ app_id: appId, host_user_ref: hostUserRef });
      cancelForMember.run({ app_id: appId, host_user_ref: hostUserRef, now });
      for (const id of ids) stalled.delete(id);
      return ids;
    },
    /** WH-3: cancels a delivery not yet sent, with `reason` as its last error (a claimed one is never sent after this). */
    withdraw(id: string, reason: string, now: number): boolean {
      stalled.delete(id);
      return withdraw.run({ id, reason, now }).changes > 0;
    },
    /** The app's scan.results_available deliveries that are pending or in flight. */
    pendingResultsOf: (appId: string): string[] => pendingResults.all(appId),
    /**
     * When the dispatcher (re)starts, or the state was replaced: every delivery in flight is due now
     * (after a kill -9, those the dead process was sending). Returns how many.
     */
    resetInFlight(now: number): number {
      stalled.clear();
      return releaseInFlight.run({ now }).changes;
    },
    /** After the state was replaced (import, reset, restore): what it holds in flight is sent by no one, so it is due now. */
    forgetClaims(now: number): void {
      epoch += 1;
      held.clear();
      stalled.clear();
      releaseInFlight.run({ now });
    },
    /** Which state a claim belongs to (see `epoch`): taken at a claim, compared before a send and a record. */
    claimEpoch: (): number => epoch,
  };
}
