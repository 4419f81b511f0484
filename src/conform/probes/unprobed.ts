import type { Unprobed } from '../probe.js';

const KEYS = "needs a second key to revoke, suspend or rotate: the portal's key routes are not part of the interface";
const INSIDE = 'not observable through the public interface';
const BILLING = 'billing shows only on the invoice, not through the interface';

/** Every rule of docs/rules.md this suite does not probe, and why: each gets its own line. */
export const UNPROBED: readonly Unprobed[] = [
  { rule: 'AUTH-5', title: 'a revoked or expired-grace key gets 403 key_revoked', reason: KEYS },
  { rule: 'AUTH-6', title: 'a suspended key gets 403 key_suspended', reason: KEYS },
  { rule: 'AUTH-7', title: 'a key of a suspended account gets 403 account_suspended', reason: KEYS },
  { rule: 'AUTH-8', title: 'rotation keeps the old key for 24 hours', reason: KEYS },
  { rule: 'AUTH-9', title: 'the environment is fixed by the key', reason: INSIDE },
  { rule: 'AUTH-10', title: 'one live and one test key pair per app', reason: KEYS },
  { rule: 'AUTH-11', title: 'a secret key is shown once', reason: KEYS },
  { rule: 'AUTH-14', title: 'a revocation takes effect within one token lifetime', reason: KEYS },
  { rule: 'SES-4', title: 'the token is stored only as a hash', reason: INSIDE },
  { rule: 'APP-1', title: 'PATCH /v1/apps/{app_id} is the portal’s', reason: 'exercised by the WH-* probes when they run' },
  { rule: 'APP-2', title: 'the signing secret is issued once', reason: 'an app that has a secret never shows it again: not repeatable' },
  { rule: 'APP-3', title: 'without webhook_url no deliveries', reason: 'needs a receiver that is not the app’s: not observable' },
  {
    rule: 'APP-4',
    title: 'results delivery is off by default',
    reason: 'needs a new app: the portal’s app routes are not part of the interface',
  },
  { rule: 'APP-5', title: 'bundle and team identifiers must match exactly', reason: 'probed as DEV-2' },
  { rule: 'DEV-1', title: 'enrollment once per installation', reason: 'exercised by DEV-4 and the WH-* probes when they run' },
  { rule: 'DEV-3', title: 'a blocked installation cannot start a scan', reason: 'blocking is the operator’s, not part of the interface' },
  { rule: 'DEV-6', title: 'offline scans sync with a fresh token', reason: INSIDE },
  { rule: 'DEV-9', title: 'without results delivery nothing is stored', reason: 'probed as DEV-7 (the upload is refused)' },
  { rule: 'BILL-1', title: 'a live completed scan bills', reason: BILLING },
  { rule: 'BILL-2', title: 'test-key scans are never billed', reason: BILLING },
  { rule: 'BILL-3', title: 'failed and abandoned scans never bill', reason: BILLING },
  { rule: 'BILL-4', title: 'the unit is the distinct member per month', reason: BILLING },
  { rule: 'BILL-5', title: 'a duplicate report is not a second charge', reason: BILLING },
  { rule: 'BILL-6', title: 'minting is never a charge', reason: BILLING },
  { rule: 'WH-8', title: 'delivery is at least once', reason: 'probed as WH-7 (a refused delivery comes again)' },
  {
    rule: 'ERR-2',
    title: 'each status and code of the error table under its condition',
    reason: 'probed code by code (AUTH-2, SES-7, SES-9, DEV-2)',
  },
  { rule: 'VER-1', title: 'every route under /v1; interface 1.0.0', reason: 'every probe speaks /v1; the version is not served' },
];
