import { ApiError } from '../../contract/errors.js';
import type { Operation, PathParamName, Security } from '../../contract/operation.js';
import type { AccountRow } from '../../store/tables/accounts.js';
import type { AppRow } from '../../store/tables/apps.js';
import type { InstallationRow } from '../../store/tables/device.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';
import type { StateContext } from '../domain/state-context.js';
import type { Callers } from './security.js';

/**
 * Path parameters that name a stored thing are loaded before the handler runs; a missing one is
 * 404 resource_missing with the parameter named. A portal caller sees only its own account's apps,
 * and another account's app is reported as missing, so app ids cannot be probed.
 */
interface LoadedRows {
  app_id: { app: AppRow };
  installation_id: { installation: InstallationRow };
  delivery_id: { delivery: DeliveryWithEvent };
  account_id: { account: AccountRow };
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** The rows a handler of O receives, by its path parameters: `{ app: AppRow }` for /apps/{app_id}. */
export type LoadedOf<O extends Operation> = UnionToIntersection<
  { [K in PathParamName<O>]: K extends keyof LoadedRows ? LoadedRows[K] : unknown }[PathParamName<O>]
>;

const missing = (what: string, id: string, param: string, suffix = '') =>
  new ApiError('resource_missing', `No ${what} ${id.slice(0, 100)}${suffix}.`, param);

type Loader = (ctx: StateContext, id: string, caller: Callers[Security]) => [name: string, row: unknown];

/** The app named by an id anywhere in a request (a path or a query parameter). */
export function requireApp(ctx: StateContext, id: string): AppRow {
  const row = ctx.store.apps.get(id);
  if (!row) throw missing('app', id, 'app_id');
  return row;
}

export const LOADERS: Record<string, Loader> = {
  app_id(ctx, id, caller) {
    const portal = caller && 'accountId' in caller ? caller : undefined;
    if (portal?.accountId === undefined) return ['app', requireApp(ctx, id)];
    const row = ctx.store.apps.get(id);
    if (!row || row.account_id !== portal.accountId) throw missing('app', id, 'app_id', ' in this portal account');
    return ['app', row];
  },
  installation_id(ctx, id) {
    const row = ctx.store.device.installation(id);
    if (!row) throw missing('installation', id, 'installation_id');
    return ['installation', row];
  },
  delivery_id(ctx, id) {
    const row = ctx.store.webhooks.deliveryById(id);
    if (!row) throw missing('delivery', id, 'delivery_id');
    return ['delivery', row];
  },
  account_id(ctx, id) {
    const row = ctx.store.accounts.get(id);
    if (!row) throw missing('account', id, 'account_id');
    return ['account', row];
  },
};
