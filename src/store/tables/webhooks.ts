import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../db.js';
import type { DeliveryClaims } from './delivery-claims.js';
import type { DeliveryStatus } from '../../contract/webhooks.js';
import type { AttemptRow, DeliveryFilter, DeliveryOutcome, DeliveryRow, DeliveryWithEvent, EventRow, ListenerRow } from './webhook-rows.js';

// The row types live in webhook-rows.ts; importers of this module find them here too.
export type { DeliveryRow, DeliveryWithEvent, EventRow, ListenerRow } from './webhook-rows.js';

const EVENT_COLUMNS = 'e.type AS event_type, e.scan_id AS scan_id, e.payload AS payload, e.created_at AS event_created_at';
const JOINED = `SELECT d.*, ${EVENT_COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id`;
// With the delivery's rowid as `seq`: it orders the deliveries created in the same millisecond.
const JOINED_WITH_SEQ = `SELECT d.*, d.rowid AS seq, ${EVENT_COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id`;

/**
 * Events, deliveries and attempts: the outbox. Times are ms on the emulator clock. A delivery the
 * dispatcher has claimed stays pending in the database and shows as in flight (see DeliveryClaims).
 */
export function webhookStatements(db: Db, claims: DeliveryClaims) {
  const insertEvent = db.prepare<Omit<EventRow, 'redacted_at'>>(`
    INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at)
    VALUES (@id, @app_id, @type, @scan_id, @host_user_ref, @payload, @created_at)
    ON CONFLICT(app_id, scan_id, type) DO NOTHING`);
  const eventById = db.prepare<[string], EventRow>('SELECT * FROM events WHERE id = ?');
  const eventByScan = db.prepare<[string, string, string], EventRow>('SELECT * FROM events WHERE app_id = ? AND scan_id = ? AND type = ?');
  const redactResults = db.prepare<{ app_id: string; host_user_ref: string; now: number }>(`
    UPDATE events SET payload = '', redacted_at = @now
    WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND type = 'scan.results_available' AND redacted_at IS NULL`);

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
  // Its position among the app's deliveries (0-based), kept beside it (see ../derived.ts).
  const insertOrdinal = db.prepare<{ id: string; app_id: string }>(`
    INSERT INTO delivery_ordinals (delivery_id, app_id, ordinal)
    VALUES (@id, @app_id, coalesce((SELECT max(ordinal) + 1 FROM delivery_ordinals WHERE app_id = @app_id), 0))`);
  // Both rows or neither (a resend is queued outside any other transaction).
  const insertDeliveryTx = db.transaction(
    (row: { id: string; event_id: string; app_id: string; host_user_ref: string; origin: string }, now: number) => {
      insertDelivery.run({ ...row, now, due: newDueFrom === null ? now : Math.max(now, newDueFrom) });
      if (newDueFrom !== null) {
        held.add(row.id);
        claims.defer(row.id, Infinity);
      }
      insertOrdinal.run({ id: row.id, app_id: row.app_id });
    },
  );
  const deliveryById = db.prepare<[string], DeliveryWithEvent>(`${JOINED} WHERE d.id = ?`);
  // The pending deliveries in due order, for the earliest one not claimed: claimed ones come first (they were due first).
  const dueTimes = db
    .prepare<{ limit: number }, [string, number]>(
      `SELECT id, next_attempt_at FROM deliveries INDEXED BY deliveries_pending WHERE status = 'pending' ORDER BY next_attempt_at, rowid LIMIT @limit`,
    )
    .raw();
  const due = db.prepare<{ now: number; limit: number; claimed: string }, DeliveryWithEvent>(
    // Oldest due first, ties in the order queued (rowid): the partial index deliveries_pending
    // (next_attempt_at, rowid) gives this order as is, so LIMIT stops early: with 10,000 due at once,
    // a claim does not sort them all and join each with its event.
    // INDEXED BY: without statistics the planner would rather sort a range of a status index.
    // The claimed ones are skipped before their event is joined and their payload read.
    `SELECT d.*, ${EVENT_COLUMNS} FROM deliveries d INDEXED BY deliveries_pending JOIN events e ON e.id = d.event_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@claimed))
       ORDER BY d.next_attempt_at, d.rowid LIMIT @limit`,
  );
  // While some apps wait for their receiver's turn, the others' due deliveries are read app by app
  // from their pending range of deliveries_app_status: skipping a waiting app's rows in due order
  // would walk all of them (20,000 due to one receiver cost two such walks per claimed batch).
  const dueOfApp = db.prepare<{ app_id: string; now: number; limit: number; claimed: string }, DeliveryWithEvent & { seq: number }>(
    `SELECT d.*, d.rowid AS seq, ${EVENT_COLUMNS} FROM deliveries d INDEXED BY deliveries_app_status JOIN events e ON e.id = d.event_id
     WHERE d.app_id = @app_id AND d.status = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@claimed))
     ORDER BY d.next_attempt_at, d.rowid LIMIT @limit`,
  );
  const dueTimesOfApp = db
    .prepare<{ app_id: string; limit: number }, [string, number]>(
      `SELECT id, next_attempt_at FROM deliveries INDEXED BY deliveries_app_status
       WHERE app_id = @app_id AND status = 'pending' ORDER BY next_attempt_at, rowid LIMIT @limit`,
    )
    .raw();
  const status = db.prepare<[string], DeliveryStatus>('SELECT status FROM deliveries WHERE id = ?').pluck();
  // An attempt's outcome applies to a delivery still pending in the database: one cancelled meanwhile is never resurrected.
  // The dispatcher's per-attempt statements bind by position: naming parameters costs a property lookup each.
  const finish = db.prepare<[DeliveryStatus, number, number | null, number | null, string | null, number, string]>(
    `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?, chaos_hold = NULL, updated_at = ?
      WHERE id = ? AND status = 'pending'`,
  );
  const hold = db.prepare<{ id: string; next_attempt_at: number; chaos_hold: string; now: number }>(
    `UPDATE deliveries SET next_attempt_at = @next_attempt_at, chaos_hold = @chaos_hold, updated_at = @now
     WHERE id = @id AND status = 'pending'`,
  );
  const retryLater = db.prepare<{ id: string; next_attempt_at: number; now: number }>(
    `UPDATE deliveries SET next_attempt_at = @next_attempt_at, updated_at = @now
     WHERE id = @id AND status = 'pending'`,
  );
  const cancelForMember = db.prepare<{ app_id: string; host_user_ref: string; now: number }>(`
    UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = 'cancelled by DELETE /v1/results', updated_at = @now
    WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND status = 'pending'`);
  // WH-3: a scan.results_available not yet sent when its app switched results delivery off is never sent.
  const withdraw = db.prepare<{ id: string; reason: string; now: number }>(`
    UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = @reason, chaos_hold = NULL, updated_at = @now
    WHERE id = @id AND status = 'pending'`);
  const pendingResults = db
    .prepare<[string], string>(
      `SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id
       WHERE d.app_id = ? AND d.status = 'pending' AND e.type = 'scan.results_available'`,
    )
    .pluck();
  const cancelledIds = db.prepare<{ app_id: string; host_user_ref: string }, { id: string }>(
    "SELECT id FROM deliveries WHERE app_id = @app_id AND host_user_ref = @host_user_ref AND status = 'pending'",
  );

  const insertAttempt = db.prepare<
    [string, string, number, string, number, number | null, number | null, string | null, string | null, string | null]
  >(`INSERT INTO attempts (delivery_id, event_id, number, url, started_at, status, latency_ms, error, response_excerpt, request_headers)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const attemptsOf = db.prepare<[string], AttemptRow>('SELECT * FROM attempts WHERE delivery_id = ? ORDER BY number, id');

  const insertListener = db.prepare<ListenerRow>(
    'INSERT INTO webhook_listeners (id, app_id, forward_url, events, created_at) VALUES (@id, @app_id, @forward_url, @events, @created_at)',
  );
  const deleteListener = db.prepare<[string]>('DELETE FROM webhook_listeners WHERE id = ?');
  const clearListeners = db.prepare('DELETE FROM webhook_listeners');
  const listenerFor = db.prepare<[string], ListenerRow>(
    'SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const listeners = db.prepare<[], ListenerRow>('SELECT * FROM webhook_listeners ORDER BY created_at, rowid');
  const listenersOf = db.prepare<[string], ListenerRow>('SELECT * FROM webhook_listeners WHERE app_id = ? ORDER BY created_at, rowid');
  // A claim writes nothing: one read of the due rows not claimed yet.
  /** The apps with deliveries but those in `skip`. */
  const appsBut = (skip: readonly string[]) => appsWithDeliveries.all().filter((appId) => !skip.includes(appId));
  const claim = (now: number, limit: number, skipApps: readonly string[]): DeliveryWithEvent[] => {
    const claimed = claims.skipped(now);
    let rows: DeliveryWithEvent[];
    if (skipApps.length === 0) rows = due.all({ now, limit, claimed });
    else {
      const merged = appsBut(skipApps).flatMap((appId) => dueOfApp.all({ app_id: appId, now, limit, claimed }));
      merged.sort((a, b) => a.next_attempt_at! - b.next_attempt_at! || a.seq - b.seq);
      rows = merged.slice(0, limit).map(({ seq: _seq, ...row }) => row);
    }
    for (const row of rows) claims.add(row.id);
    return rows.map((row) => claims.shown(row));
  };
  // In due order: the first row neither claimed nor deferred (see DeliveryClaims.defer) bounds every later one.
  const firstUnclaimed = (times: Array<[string, number]>): number | null => {
    let earliest: number | null = null;
    for (const [id, at] of times) {
      if (claims.has(id)) continue;
      const later = claims.deferredUntil(id);
      const when = later === undefined ? at : Math.max(at, later);
      if (earliest === null || when < earliest) earliest = when;
      if (later === undefined) break;
    }
    return earliest;
  };
  const nextDueAt = (skipApps: readonly string[] = []): number | null => {
    if (skipApps.length === 0) return firstUnclaimed(dueTimes.all({ limit: claims.size + claims.deferredCount + 1 }));
    let earliest: number | null = null;
    for (const appId of appsBut(skipApps)) {
      const at = firstUnclaimed(dueTimesOfApp.all({ app_id: appId, limit: claims.size + claims.deferredCount + 1 }));
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  };
  const listStatements = new Map<string, BetterSqlite3.Statement<Record<string, string | number>, DeliveryWithEvent>>();
  // The apps that have deliveries, one index seek each (a loose scan of deliveries_app_created): a handful.
  const appsWithDeliveries = db
    .prepare<[], string>(
      `WITH RECURSIVE apps(id) AS (
         SELECT min(app_id) FROM deliveries
         UNION ALL SELECT (SELECT min(app_id) FROM deliveries WHERE app_id > apps.id) FROM apps WHERE apps.id IS NOT NULL)
       SELECT id FROM apps WHERE id IS NOT NULL`,
    )
    .pluck();
  const list = (filter: DeliveryFilter, seq = false): Array<DeliveryWithEvent & { seq?: number }> => {
    const where: string[] = [];
    const params: Record<string, string | number> = { limit: filter.limit ?? 100 };
    // A scan, an event or an app's member names a handful of deliveries: find them by event
    // (events_scan_id, deliveries_event) or member (deliveries_user) and keep app and status as
    // plain filters (the unary +), rather than walk the app's whole outbox in date order looking for them.
    const few = Boolean(filter.scan_id || filter.event_id || (filter.host_user_ref && filter.app_id));
    const plain = few ? '+' : '';
    if (filter.app_id) (where.push(`${plain}d.app_id = @app_id`), (params.app_id = filter.app_id));
    if (filter.status) {
      const clause = claims.statusClause(filter.status, plain);
      where.push(clause.sql);
      Object.assign(params, clause.params);
    }
    if (filter.scan_id) (where.push('d.event_id IN (SELECT id FROM events WHERE scan_id = @scan_id)'), (params.scan_id = filter.scan_id));
    if (filter.event_id) (where.push('d.event_id = @event_id'), (params.event_id = filter.event_id));
    if (filter.host_user_ref) params.host_user_ref = filter.host_user_ref;
    if (filter.host_user_ref)
      where.push(
        filter.app_id
          ? 'd.rowid IN (SELECT rowid FROM deliveries WHERE app_id = @app_id AND host_user_ref = @host_user_ref)'
          : 'd.host_user_ref = @host_user_ref',
      );
    const sql = `${seq ? JOINED_WITH_SEQ : JOINED} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.created_at DESC, d.rowid DESC LIMIT @limit`;
    // A few dozen shapes of filter at most (pending and in flight read the claims when there are any): each prepared once.
    let statement = listStatements.get(sql);
    if (!statement) listStatements.set(sql, (statement = db.prepare<Record<string, string | number>, DeliveryWithEvent>(sql)));
    return statement.all(params).map((row) => claims.shown(row));
  };
  /**
   * One status across apps (migration 0009: no index orders a status across apps): the newest
   * `limit` of each app's range of (app_id, status, created_at), merged newest first as one query would.
   */
  const listStatusAcrossApps = (filter: DeliveryFilter): DeliveryWithEvent[] => {
    const limit = filter.limit ?? 100;
    const rows = appsWithDeliveries.all().flatMap((appId) => list({ ...filter, app_id: appId }, true));
    rows.sort((a, b) => b.created_at - a.created_at || b.seq! - a.seq!);
    return rows.slice(0, limit).map((row) => {
      delete row.seq;
      return row;
    });
  };

  return {
    /** Inserts the event unless one exists for (app, scan, type); returns the stored row either way. */
    insertEvent(row: Omit<EventRow, 'redacted_at'>): { row: EventRow; created: boolean } {
      const created = insertEvent.run(row).changes > 0;
      return { row: eventByScan.get(row.app_id, row.scan_id, row.type)!, created };
    },
    eventById: (id: string) => eventById.get(id),
    redactResults: (appId: string, hostUserRef: string, now: number) =>
      redactResults.run({ app_id: appId, host_user_ref: hostUserRef, now }).changes,

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
      if (at !== null) return;
      for (const id of held) claims.undefer(id);
      held.clear();
    },
    deliveryById(id: string): DeliveryWithEvent | undefined {
      const row = deliveryById.get(id);
      return row && claims.shown(row);
    },
    deliveries(filter: DeliveryFilter): DeliveryWithEvent[] {
      // In flight is found by the claims' ids (the primary key), whatever the app.
      const acrossApps = filter.status && filter.status !== 'in_flight' && !filter.app_id && !filter.scan_id && !filter.event_id;
      return acrossApps ? listStatusAcrossApps(filter) : list(filter);
    },
    /** When the earliest due delivery not yet claimed (of an app not in `skipApps`) is due; null when none is queued. */
    nextDueAt,
    /**
     * Claims up to `limit` due deliveries not yet claimed, oldest due first, none of the apps in
     * `skipApps` (theirs wait for a receiver's turn): they are in flight until their outcome is written.
     */
    claimDue: (now: number, limit: number, skipApps: readonly string[] = []): DeliveryWithEvent[] => claim(now, limit, skipApps),
    /** DEL-2: false once the delivery was cancelled (or its outcome written) since it was claimed. */
    isClaimed: (id: string): boolean => claims.has(id),
    status(id: string): DeliveryStatus | undefined {
      const value = status.get(id);
      return value && claims.shown({ id, status: value }).status;
    },
    /** Records the outcome of a claimed delivery; false when it was cancelled meanwhile (never resurrected). */
    finish(row: DeliveryOutcome, now: number): boolean {
      claims.delete(row.id);
      return finish.run(row.status, row.attempts, row.next_attempt_at, row.last_status, row.last_error, now, row.id).changes > 0;
    },
    hold(id: string, nextAttemptAt: number, chaosHold: string, now: number): boolean {
      claims.delete(id);
      return hold.run({ id, next_attempt_at: nextAttemptAt, chaos_hold: chaosHold, now }).changes > 0;
    },
    /** A claimed delivery whose attempt could not be recorded is due again at `nextAttemptAt`. */
    retryLater(id: string, nextAttemptAt: number, now: number): boolean {
      claims.delete(id);
      try {
        return retryLater.run({ id, next_attempt_at: nextAttemptAt, now }).changes > 0;
      } catch (error) {
        // The store refuses writes (a full disk): the gap is kept in memory instead.
        claims.defer(id, nextAttemptAt);
        throw error;
      }
    },
    /** DEL-2: cancels the member's pending and in-flight deliveries (a claimed one is never sent after this); returns their ids. */
    cancelForMember(appId: string, hostUserRef: string, now: number): string[] {
      const ids = cancelledIds.all({ app_id: appId, host_user_ref: hostUserRef }).map((r) => r.id);
      cancelForMember.run({ app_id: appId, host_user_ref: hostUserRef, now });
      for (const id of ids) claims.delete(id);
      return ids;
    },
    /** WH-3: cancels a delivery not yet sent, with `reason` as its last error (a claimed one is never sent after this). */
    withdraw(id: string, reason: string, now: number): boolean {
      claims.delete(id);
      return withdraw.run({ id, reason, now }).changes > 0;
    },
    /** The app's scan.results_available deliveries that are pending or in flight. */
    pendingResultsOf: (appId: string): string[] => pendingResults.all(appId),
    /**
     * When the dispatcher (re)starts: what an earlier run of it had claimed in this process is due
     * now. (After a crash nothing is claimed: those deliveries are pending and already due.)
     */
    resetInFlight(now: number): number {
      let released = 0;
      for (const id of claims.clear()) released += retryLater.run({ id, next_attempt_at: now, now }).changes;
      return released;
    },
    /** After the state was replaced (import, reset, restore): claims name deliveries that are gone. */
    forgetClaims: () => claims.forgetAll(),
    /** Which state the claims belong to (see DeliveryClaims.epoch): taken at a claim, compared before a send and a record. */
    claimEpoch: (): number => claims.epoch,

    insertAttempt: (row: Omit<AttemptRow, 'id'>) =>
      void insertAttempt.run(
        row.delivery_id,
        row.event_id,
        row.number,
        row.url,
        row.started_at,
        row.status,
        row.latency_ms,
        row.error,
        row.response_excerpt,
        row.request_headers,
      ),
    attemptsOf: (deliveryId: string) => attemptsOf.all(deliveryId),

    insertListener: (row: ListenerRow) => void insertListener.run(row),
    deleteListener: (id: string) => deleteListener.run(id).changes > 0,
    clearListeners: () => void clearListeners.run(),
    listenerFor: (appId: string) => listenerFor.get(appId),
    listeners: () => listeners.all(),
    listenersOf: (appId: string) => listenersOf.all(appId),
  };
}
