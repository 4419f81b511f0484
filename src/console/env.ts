import type { AppRow } from '../store/tables/apps.js';

/** The developer signed in to the console: their portal session and their account's apps. */
export interface Developer {
  accountId: string;
  /** The portal cookie's value (never rendered; needed to sign out and to renew). */
  cookie: string;
  apps: AppRow[];
}

/** hono variables of the console's requests. */
export interface ConsoleEnv {
  Variables: {
    developer: Developer;
    /** The app the page is about: `?app=` when it is one of the account's, else the account's first. */
    app: AppRow;
  };
}
