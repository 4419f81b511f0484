import type BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import type { Db } from '../db.js';
import type { DeliveryStatus } from '../../contract/webhooks.js';
import { deliveryWithEventColumns, withHold } from './webhook-rows.js';
import { rowsOf, type CellsOf, type RowOf } from '../row-statements.js';

/** A delivery as a page of the web console lists it: with its place in the order and its last attempt's latency and answer. */
const deliveryPageRow = () =>
  z.strictObject({
    ...deliveryWithEventColumns(),
    seq: z.number().int(),
    latency_ms: z.number().int().nullable(),
    response_excerpt: z.string().nullable(),
  });
export type DeliveryPageRow = RowOf<typeof deliveryPageRow>;

export interface DeliveryPageQuery {
  app_id: string;
  status?: DeliveryStatus | undefined;
  /** Older than this delivery (the next page), or newer than it (the previous page). */
  before?: string | undefined;
  after?: string | undefined;
  limit: number;
}

export interface DeliveryPage {
  rows: DeliveryPageRow[];
  hasOlder: boolean;
  hasNewer: boolean;
}

export const COUNT_CAP = 10_000;

const SELECT = `SELECT d.*, d.rowid AS seq, e.type AS event_type, e.scan_id AS scan_id, e.payload AS payload, e.created_at AS event_created_at,
    (SELECT a.latency_ms FROM attempts a WHERE a.delivery_id = d.id AND a.duplicate_send = 0 ORDER BY a.number DESC, a.id DESC LIMIT 1) AS latency_ms,
    (SELECT a.response_excerpt FROM attempts a WHERE a.delivery_id = d.id AND a.duplicate_send = 0 ORDER BY a.number DESC, a.id DESC LIMIT 1) AS response_excerpt
  FROM deliveries d JOIN events e ON e.id = d.event_id`;

/**
 * An app's deliveries newest first, a page at a time, by keyset (created_at, rowid) so that a page
 * deep in 100,000 deliveries costs what the first one does (the indexes deliveries_app_created and deliveries_app_status).
 */
export function deliveryPageStatements(db: Db) {
  const cursor = rowsOf(db, () => z.strictObject({ created_at: z.number().int(), seq: z.number().int() })).prepare<[string, string]>(
    'SELECT created_at, rowid AS seq FROM deliveries WHERE id = ? AND app_id = ?',
  );
  // Counting stops past COUNT_CAP: an exact total of 100,000 rows would cost more than the page itself.
  const counts = rowsOf(db, () => z.number().int());
  const count = counts.pluck<{ app_id: string; cap: number }>(
    'SELECT count(*) FROM (SELECT 1 FROM deliveries WHERE app_id = @app_id LIMIT @cap)',
  );
  const countStatus = counts.pluck<{ app_id: string; status: DeliveryStatus; cap: number }>(
    'SELECT count(*) FROM (SELECT 1 FROM deliveries WHERE app_id = @app_id AND status = @status LIMIT @cap)',
  );
  const countOf = (appId: string, status: DeliveryStatus): number => {
    return countStatus.get({ app_id: appId, status, cap: COUNT_CAP + 1 }) ?? 0;
  };
  const pageRows = rowsOf(db, deliveryPageRow);
  const row = pageRows.prepare<[string]>(`${SELECT} WHERE d.id = ?`);
  const statements = new Map<string, BetterSqlite3.Statement<Record<string, string | number>, CellsOf<typeof deliveryPageRow>>>();
  const statement = (status: string | null, side: 'first' | 'before' | 'after') => {
    const key = `${status}:${side}`;
    let prepared = statements.get(key);
    if (!prepared) {
      const where = ['d.app_id = @app_id'];
      if (status) where.push(status);
      if (side === 'before') where.push('(d.created_at, d.rowid) < (@created_at, @seq)');
      if (side === 'after') where.push('(d.created_at, d.rowid) > (@created_at, @seq)');
      const order = side === 'after' ? 'ASC' : 'DESC';
      const sql = `${SELECT} WHERE ${where.join(' AND ')} ORDER BY d.created_at ${order}, d.rowid ${order} LIMIT @limit`;
      statements.set(key, (prepared = pageRows.prepare<Record<string, string | number>>(sql)));
    }
    return prepared;
  };

  return {
    /** One page; a cursor that names no delivery of the app starts from the newest. */
    page(query: DeliveryPageQuery): DeliveryPage {
      const anchorId = query.before ?? query.after;
      const anchor = anchorId ? cursor.get(anchorId, query.app_id) : undefined;
      const side = !anchor ? 'first' : query.before ? 'before' : 'after';
      const params: Record<string, string | number> = { app_id: query.app_id, limit: query.limit + 1 };
      if (query.status) params.status = query.status;
      if (anchor) Object.assign(params, anchor);
      const rows = statement(query.status ? 'd.status = @status' : null, side)
        .all(params)
        .map(withHold);
      const more = rows.length > query.limit;
      if (more) rows.pop();
      if (side === 'after') {
        // Back at the newest: show the newest full page rather than a short one.
        if (!more) return this.page({ ...query, after: undefined });
        rows.reverse();
        return { rows, hasNewer: more, hasOlder: true };
      }
      return { rows, hasOlder: more, hasNewer: side === 'before' };
    },
    row(id: string): DeliveryPageRow | undefined {
      const found = row.get(id);
      return found && withHold(found);
    },
    /** How many deliveries the app has (of that status), counted up to COUNT_CAP + 1: more than the cap reads as "more than". */
    count: (appId: string, status?: DeliveryStatus) =>
      status ? countOf(appId, status) : (count.get({ app_id: appId, cap: COUNT_CAP + 1 }) ?? 0),
  };
}
