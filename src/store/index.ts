import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './db.js';
import { createGroupCommit } from './group-commit.js';
import { metaStatements } from './tables/meta.js';
import { accountStatements } from './tables/accounts.js';
import { appStatements } from './tables/apps.js';
import { apiKeyStatements } from './tables/api-keys.js';
import { sessionStatements } from './tables/sessions.js';
import { quotaStatements } from './tables/quota.js';
import { portalSessionStatements } from './tables/portal-sessions.js';
import { deviceStatements } from './tables/device.js';
import { webhookStatements } from './tables/webhooks.js';
import { deliveryPageStatements } from './tables/delivery-pages.js';
import { faultStatements } from './tables/faults.js';
import { chaosStatements } from './tables/chaos.js';
import { OutboxChanges } from './outbox-changes.js';

/** Every table's prepared statements, built once per database. */
export function createStore(db: Db) {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- names the type for the declaration file, which cannot name it otherwise (TS4058)
    db: db as BetterSqlite3.Database,
    meta: metaStatements(db),
    accounts: accountStatements(db),
    apps: appStatements(db),
    keys: apiKeyStatements(db),
    sessions: sessionStatements(db),
    quota: quotaStatements(db),
    portalSessions: portalSessionStatements(db),
    device: deviceStatements(db),
    webhooks: webhookStatements(db),
    deliveryPages: deliveryPageStatements(db),
    faults: faultStatements(db),
    chaos: chaosStatements(db),
    /** Writes that may share one transaction with the others of the same event-loop turn. */
    groupCommit: createGroupCommit(db),
    /** The outbox's subscribers (the webhook engine of this store): told of queued and cancelled deliveries. */
    outbox: new OutboxChanges(),
  };
}
export type Store = ReturnType<typeof createStore>;
