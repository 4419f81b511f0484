import type { Command } from 'commander';
import { ControlClient } from '../client/control.js';
import { ApiCallError, ConnectionError } from '../client/http.js';
import { DEFAULT_HOST, DEFAULT_PORT, readServeState } from '../emulator/serve-state.js';
import { UserError } from './errors.js';
import { EXIT } from './exit-codes.js';

export interface GlobalOptions {
  baseUrl?: string;
  app?: string;
  json?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

/**
 * The base URL: --base-url, then SCANCTL_BASE_URL, then the emulator that `scanctl serve`
 * recorded in this folder, then the default local port.
 */
export function resolveBaseUrl(options: GlobalOptions): string {
  const explicit = options.baseUrl ?? process.env.SCANCTL_BASE_URL;
  if (explicit) {
    try {
      const url = new URL(explicit);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      return explicit.replace(/\/+$/, '');
    } catch {
      throw new UserError(`--base-url must be an http(s) URL, not "${explicit}"`);
    }
  }
  return readServeState()?.base_url ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
}

/** The control plane of a local emulator; a clear error when the base URL is not one. */
export function controlClient(options: GlobalOptions): ControlClient {
  return new ControlClient(resolveBaseUrl(options));
}

/** --app, else the emulator's default app. */
export async function resolveAppId(control: ControlClient, options: GlobalOptions): Promise<string> {
  if (options.app) return options.app;
  const info = await emulatorInfo(control);
  if (!info.default_app_id) throw new UserError('the emulator has no apps: load fixtures with scanctl serve --fixtures FILE');
  return info.default_app_id;
}

export async function emulatorInfo(control: ControlClient) {
  try {
    return await control.info();
  } catch (error) {
    if (error instanceof ApiCallError) {
      throw new UserError(`${control.baseUrl} is not a scanctl emulator: this command needs the local emulator's control plane`, {
        hint: 'start one with `scanctl serve`, or point --base-url at it',
        exitCode: EXIT.usage,
      });
    }
    throw error;
  }
}

/**
 * The secret key for the two public calls: --key, then SCANCTL_SECRET_KEY; against a local
 * emulator, the key of `env` (test unless asked) that its fixtures give the default (or --app) app.
 */
export async function resolveSecretKey(options: GlobalOptions & { key?: string }, env: 'test' | 'live' = 'test'): Promise<string> {
  const explicit = options.key ?? process.env.SCANCTL_SECRET_KEY;
  if (explicit) return explicit;
  const control = controlClient(options);
  let info;
  try {
    info = await control.info();
  } catch (error) {
    if (error instanceof ConnectionError) throw error;
    throw new UserError('no secret key: pass --key or set SCANCTL_SECRET_KEY', { exitCode: EXIT.usage });
  }
  const appId = options.app ?? info.default_app_id;
  const keys = appId ? await control.fixtureKeys(appId).catch(() => null) : null;
  const key = keys?.[env]?.secret ?? null;
  if (!key) {
    throw new UserError(`no ${env} secret key for ${appId ?? 'the emulator'}: pass --key or set SCANCTL_SECRET_KEY`, {
      hint: 'keys issued with `scanctl key create` are shown once; keep the one it printed',
    });
  }
  return key;
}
