import type { IncomingMessage } from 'node:http';

/** Hono's per-request variables. */
export interface AppEnv {
  Variables: {
    /** Filled by authentication so the request log can name the key and environment. */
    logKey?: string;
    logEnv?: 'test' | 'live';
    logAppId?: string;
    /** Set by errorResponse: the error body's code, for the request log. */
    errorCode?: string;
    /** The JSON body's text as received, for fields kept exactly as sent (WH-3). */
    jsonText?: string;
    /** Set by limitBodies: the socket to read the body from (its length already checked). */
    bodyFrom?: IncomingMessage;
  };
}
