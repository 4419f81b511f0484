import type { CheckpointCreated, CheckpointDelete, CheckpointRestore, Checkpoint } from '../../contract/checkpoints.js';
import { CHOICES } from '../../contract/choices.js';
import { ApiError } from '../../contract/errors.js';
import { toIso } from '../../contract/time.js';
import { schemaVersion } from '../../store/db.js';
import { recordClock } from '../clock-and-ids.js';
import type { StateChangeContext } from './state-change-context.js';
import {
  attachCheckpoints,
  copyBack,
  dropCheckpoint,
  findCheckpoint,
  listCheckpoints,
  stateTables,
  writeCheckpoint,
  type CheckpointRow,
} from './checkpoint-store.js';
import { changedRowsSql, changedTables, changesSince, clearChanges, matchedCheckpoint, pauseTracking, trackChanges } from './change-log.js';
import { afterStateChange } from './import.js';
import { announceEnded, holdListeners, reattachListeners } from './listeners.js';

/** Listeners belong to the run, not to the state (CHOICE-30): held and put back, never copied. */
const LISTENERS = 'webhook_listeners';

function checkpointView(row: CheckpointRow): Checkpoint {
  return {
    object: 'checkpoint',
    id: row.id,
    name: row.name,
    created_at: toIso(row.created_at),
    clock_offset_ms: row.clock_offset_ms,
    schema_version: row.schema_version,
    rows: row.rows,
  };
}

/**
 * CHOICE-45: keeps the whole state as it is now. Taken between clock moves (a move under way
 * finishes first), so the copy and its clock offset agree. A name already in use moves to the new
 * checkpoint and the old one is deleted (CHOICE-46).
 */
export function createCheckpoint(ctx: StateChangeContext, name: string | undefined): Promise<CheckpointCreated> {
  return ctx.scheduler.exclusive(() => {
    const db = ctx.store.db;
    attachCheckpoints(db);
    const previous = name === undefined ? undefined : findCheckpoint(db, name);
    const kept = listCheckpoints(db).length - (previous ? 1 : 0);
    if (kept >= CHOICES.maxCheckpoints) {
      throw new ApiError(
        'checkpoint_limit_reached',
        `${kept} checkpoints are kept, the most there may be (${CHOICES.maxCheckpoints}): delete one (DELETE /_scanctl/state/checkpoints/{id}) or reuse a name.`,
      );
    }
    if (previous) dropCheckpoint(db, previous.id);
    const tables = stateTables(db).filter((table) => table !== LISTENERS);
    trackChanges(db, tables);
    const row: CheckpointRow = {
      id: ctx.ids.id('cp'),
      name: name ?? null,
      created_at: ctx.clock.now(),
      clock_offset_ms: ctx.clock.offsetMs,
      schema_version: schemaVersion(db),
      rows: 0,
    };
    row.rows = writeCheckpoint(db, row, tables, () => clearChanges(db));
    matchedCheckpoint(db, row.id);
    return { ...checkpointView(row), replaced: previous?.id ?? null };
  });
}

export function listCheckpointViews(ctx: StateChangeContext): Checkpoint[] {
  attachCheckpoints(ctx.store.db);
  return listCheckpoints(ctx.store.db).map(checkpointView);
}

function requireCheckpoint(ctx: StateChangeContext, idOrName: string): CheckpointRow {
  attachCheckpoints(ctx.store.db);
  const row = findCheckpoint(ctx.store.db, idOrName);
  if (!row) throw new ApiError('resource_missing', `No checkpoint ${idOrName.slice(0, 100)}.`, 'checkpoint');
  return row;
}

/**
 * CHOICE-45: puts the whole state back as the checkpoint holds it, in one transaction of the
 * emulator's database (nothing changes if it fails): every table, the clock offset, the pending
 * deliveries. Then the dispatcher follows: its claims are forgotten (an attempt on the wire
 * meanwhile is neither recorded nor retried: it belonged to the state that is gone), and it looks
 * for due work afresh. Open streams stay open; a `webhook listen` stays attached (CHOICE-30).
 */
export function restoreCheckpoint(ctx: StateChangeContext, idOrName: string): Promise<CheckpointRestore> {
  return ctx.scheduler.exclusive(() => {
    const row = requireCheckpoint(ctx, idOrName);
    const db = ctx.store.db;
    const current = schemaVersion(db);
    if (row.schema_version !== current) {
      throw new ApiError(
        'checkpoint_outdated',
        `The checkpoint ${row.id} was taken at schema version ${row.schema_version}, this emulator's is ${current}: take a new one.`,
        'checkpoint',
      );
    }
    const held = holdListeners(ctx);
    const tables = stateTables(db).filter((table) => table !== LISTENERS);
    trackChanges(db, tables);
    // The state matched this checkpoint since: only the rows written meanwhile go back.
    const onlyChanged = changesSince(db) === row.id;
    // Off around the transaction (it cannot change inside one): no row-by-row checks of a copy that was consistent.
    db.pragma('foreign_keys = OFF');
    let ended;
    try {
      ended = db.transaction(() => {
        if (!onlyChanged) {
          pauseTracking(db, tables);
          copyBack(db, row.id, tables);
          trackChanges(db, tables);
        } else {
          const changed = changedTables(db);
          copyBack(
            db,
            row.id,
            tables.filter((table) => changed.has(table)),
            changedRowsSql,
          );
        }
        clearChanges(db);
        recordClock(ctx.store, ctx.clock, row.clock_offset_ms);
        return reattachListeners(ctx, held, 'state_restore');
      })();
    } finally {
      db.pragma('foreign_keys = ON');
    }
    matchedCheckpoint(db, row.id);
    ctx.clock.restoreOffset(row.clock_offset_ms);
    afterStateChange(ctx);
    announceEnded(ctx, ended);
    return { object: 'checkpoint_restore', id: row.id, name: row.name, clock_offset_ms: row.clock_offset_ms, rows: row.rows };
  });
}

export function deleteCheckpoint(ctx: StateChangeContext, idOrName: string): CheckpointDelete {
  const row = requireCheckpoint(ctx, idOrName);
  dropCheckpoint(ctx.store.db, row.id);
  return { object: 'checkpoint_delete', id: row.id, name: row.name };
}
