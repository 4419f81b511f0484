import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ControlClient } from '../client/control.js';
import { ApiCallError, ConnectionError } from '../client/http.js';
import type { FetchLike } from '../client/node-request.js';
import { DEFAULT_HOST, DEFAULT_PORT, findServeState } from '../emulator/serve-state.js';
import { UserError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { ioOf, readAll, type CliIo } from './io.js';
import { isHttpUrl } from './http-url.js';
import { errorMessage, errorCode } from '../util/caught.js';

export interface GlobalOptions {
  baseUrl?: string;
  app?: string;
  json?: boolean;
}

/**
 * What a command's action works with: its io, the global options, and the clients of the
 * service and emulator it resolves from them. `contextOf(command)` at the top of an action.
 */
export class CommandContext {
  readonly options: GlobalOptions;
  readonly json: boolean;
  private base: string | undefined;
  private source: BaseUrlSource | undefined;
  private controlPlane: ControlClient | undefined;

  constructor(
    readonly io: CliIo,
    options: GlobalOptions,
  ) {
    this.options = options;
    this.json = Boolean(options.json);
  }

  /** One line on stdout. */
  out(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }

  /** `--json` prints the API's own JSON, otherwise the `human` rendering: both from the same data. */
  print<T>(data: T, human: (data: T) => string): void {
    this.out(this.json ? JSON.stringify(data, null, 2) : human(data));
  }

  /** One object of a stream: a JSON line under --json, else the human line. */
  printLine(data: unknown, human: string): void {
    this.out(this.json ? JSON.stringify(data) : human);
  }

  /** A file name the user gave, relative to the command's folder. */
  path(file: string): string {
    return resolve(this.io.cwd, file);
  }

  /** The bytes of a file the user named, or of stdin for `-`; one line (`what` cannot be read) when it cannot be read. */
  async read(file: string, what = file): Promise<Buffer> {
    try {
      return file === '-' ? await readAll(this.io.stdin) : readFileSync(this.path(file));
    } catch (error) {
      throw new UserError(`${what} cannot be read (${errorCode(error) ?? errorMessage(error)})`);
    }
  }

  get baseUrl(): string {
    if (this.base === undefined) {
      const { url, source } = resolveBaseUrl(this.options, this.io);
      this.base = url;
      this.source = source;
      // Not found by discovery: say which emulator this is, it may be another project's.
      if (source === 'default')
        this.io.stderr.write(
          `scanctl: note: no .scanctl/serve.json in ${this.io.cwd} or above: using the emulator at ${url} (the default)\n`,
        );
    }
    return this.base;
  }

  /**
   * For a command that destroys what it changes (state reset and import, key revoke, results
   * delete): refused against an emulator that was neither discovered nor named, which may be
   * another project's.
   */
  requireKnownEmulator(what: string): void {
    const url = this.baseUrl;
    if (this.source !== 'default') return;
    throw new UserError(
      `${what} is not undone, and no emulator was found from this folder: refusing the default ${url}, which may be another project's`,
      {
        hint: `run it in the folder where \`scanctl serve\` runs, or name the emulator with --base-url ${url} (or SCANCTL_BASE_URL)`,
      },
    );
  }

  /** What sends the client's requests (CliIo.request, else its fetch). */
  get http(): FetchLike {
    return this.io.request ?? this.io.fetch;
  }

  control(): ControlClient {
    this.controlPlane ??= new ControlClient(this.baseUrl, this.http);
    return this.controlPlane;
  }

  /** --app, else the emulator's default app. */
  async appId(): Promise<string> {
    if (this.options.app) return this.options.app;
    const info = await emulatorInfo(this.control());
    if (!info.default_app_id) throw new UserError('the emulator has no apps: load fixtures with scanctl serve --fixtures FILE');
    return info.default_app_id;
  }

  /** --key (given here), then SCANCTL_SECRET_KEY, then the emulator's fixture key of `env`. */
  secretKey(key: string | undefined, env: 'test' | 'live' = 'test'): Promise<string> {
    return resolveSecretKey({ ...this.options, key }, env, this.io, this.control());
  }
}

export function contextOf(command: Command): CommandContext {
  return new CommandContext(ioOf(command), command.optsWithGlobals<GlobalOptions>());
}

/** Where the base URL came from: named (--base-url, SCANCTL_BASE_URL), found (.scanctl/serve.json), or the default port. */
type BaseUrlSource = 'named' | 'discovered' | 'default';

/**
 * The base URL: --base-url, then SCANCTL_BASE_URL, then the emulator that `scanctl serve`
 * recorded in this folder or the nearest one above it (as git finds .git), then the default local port.
 */
function resolveBaseUrl(options: GlobalOptions, io: CliIo): { url: string; source: BaseUrlSource } {
  const explicit = options.baseUrl ?? io.env.SCANCTL_BASE_URL;
  if (explicit) {
    if (!isHttpUrl(explicit)) throw new UserError(`--base-url must be an http(s) URL, not "${explicit}"`);
    return { url: explicit.replace(/\/+$/, ''), source: 'named' };
  }
  const found = findServeState(io.cwd);
  if (found && !found.running) {
    throw new UserError(
      `the emulator is not running: ${found.file} names pid ${found.state.pid} (${found.state.base_url}), which has exited`,
      {
        exitCode: EXIT.connection,
        code: 'emulator_not_running',
        hint: 'start it with `scanctl serve`, or pass --base-url',
      },
    );
  }
  if (found) return { url: found.state.base_url, source: 'discovered' };
  return { url: `http://${DEFAULT_HOST}:${DEFAULT_PORT}`, source: 'default' };
}

async function emulatorInfo(control: ControlClient) {
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
async function resolveSecretKey(
  options: GlobalOptions & { key?: string },
  env: 'test' | 'live',
  io: CliIo,
  control: ControlClient,
): Promise<string> {
  const explicit = options.key ?? io.env.SCANCTL_SECRET_KEY;
  if (explicit) return explicit;
  let info;
  try {
    info = await control.info();
  } catch (error) {
    if (error instanceof ConnectionError) throw error;
    throw new UserError('no secret key: pass --key or set SCANCTL_SECRET_KEY', { exitCode: EXIT.usage });
  }
  const appId = options.app ?? info.default_app_id;
  const keys = appId ? await control.fixtureKeys(appId).catch((error: unknown) => rethrowMissingApp(error, appId)) : null;
  const key = keys?.[env]?.secret ?? null;
  if (!key) {
    throw new UserError(`no ${env} secret key for ${appId ?? 'the emulator'}: pass --key or set SCANCTL_SECRET_KEY`, {
      hint: 'keys issued with `scanctl key create` are shown once; keep the one it printed',
    });
  }
  return key;
}

/** A 404 for the app is "no such app", not "no key"; an emulator gone meanwhile is unreachable (exit 4); anything else leaves the key unknown. */
function rethrowMissingApp(error: unknown, appId: string): null {
  if (error instanceof ConnectionError) throw error;
  if (error instanceof ApiCallError && error.status === 404) {
    throw new UserError(`the emulator has no app ${appId}`, {
      exitCode: EXIT.api,
      code: 'resource_missing',
      hint: 'leave out --app for the default app, or pass an app id from the fixtures',
    });
  }
  return null;
}
