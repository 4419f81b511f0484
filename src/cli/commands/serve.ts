import { Command, Option } from 'commander';
import { DEFAULT_DB, DEFAULT_HOST, DEFAULT_PORT, readServeState, STATE_FILE } from '../../emulator/serve-state.js';
import { CHOICES } from '../../contract/choices.js';
import { UserError } from '../errors.js';
import { globalOptions } from '../context.js';
import { waitForSignal } from '../signals.js';
import { bold, dim } from '../style.js';
import { table } from '../output.js';
import type * as Seed from '../../emulator/seed.js';

/** Loaded with the emulator, when serve starts. */
let fixtureKeys: typeof Seed.fixtureKeys;

interface ServeFlags {
  port: string;
  host: string;
  db: string;
  fixtures?: string;
  reset?: boolean;
  rateLimit: string;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('run the local emulator of every route (backend, portal, device) on SQLite with a virtual clock')
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').env('SCANCTL_PORT').default(String(DEFAULT_PORT)))
    .addOption(new Option('--host <host>', 'address to bind').env('SCANCTL_HOST').default(DEFAULT_HOST))
    .addOption(new Option('--db <path>', 'SQLite file, or :memory:').env('SCANCTL_DB').default(DEFAULT_DB))
    .addOption(
      new Option('--fixtures <file>', 'fixture file to load (upserted on every start); default: the bundled fixtures/default.json seeds a fresh database').env(
        'SCANCTL_FIXTURES',
      ),
    )
    // Not Option.env(): commander would treat SCANCTL_RESET=0 as set and wipe the database.
    .addOption(new Option('--reset', 'start from an empty database (env SCANCTL_RESET=1)'))
    .addOption(
      new Option('--rate-limit <n>', 'requests per second per secret key before 429 rate_limited; 0 turns it off')
        .env('SCANCTL_RATE_LIMIT')
        .default(String(CHOICES.defaultRateLimitPerSecond)),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const json = Boolean(globalOptions(command).json);
      const port = parseInteger(flags.port, '--port', 0, 65535);
      const rateLimit = parseInteger(flags.rateLimit, '--rate-limit', 0, 1_000_000_000);
      const { startEmulatorServer, PortInUseError } = await import('../../emulator/server.js');
      const { DatabaseLockedError, DatabaseTooNewError } = await import('../../store/db.js');
      const { FixtureError } = await import('../../emulator/fixtures.js');
      ({ fixtureKeys } = await import('../../emulator/seed.js'));
      const { packageVersion } = await import('../main.js');
      let server;
      try {
        server = await startEmulatorServer({
          port,
          host: flags.host,
          dbPath: flags.db,
          fixturesPath: flags.fixtures ?? null,
          reset: Boolean(flags.reset) || /^(1|true|yes|on)$/i.test(process.env.SCANCTL_RESET ?? ''),
          rateLimitPerSecond: rateLimit,
          version: packageVersion(),
          stateFile: STATE_FILE,
        });
      } catch (error) {
        if (error instanceof DatabaseLockedError) {
          const other = readServeState();
          throw new UserError(`${error.message}${other ? ` (pid ${other.pid}, ${other.base_url})` : ''}`, {
            hint: 'stop that server, or pick another file with --db (or --db :memory:)',
          });
        }
        if (error instanceof PortInUseError) throw new UserError(error.message, { hint: 'pass --port 0 to pick a free port' });
        if (error instanceof FixtureError) throw new UserError(`invalid fixtures: ${error.message}`);
        if (error instanceof DatabaseTooNewError) throw new UserError(error.message);
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === 'string' && /^(SQLITE_(CANTOPEN|NOTADB|CORRUPT|READONLY|IOERR|PERM|AUTH)|EACCES|EPERM|ENOTDIR|EISDIR|EEXIST|EROFS|ENOSPC)/.test(code)) {
          throw new UserError(`cannot open the database ${flags.db}: ${(error as Error).message}`, {
            hint: 'pick another file with --db (or --db :memory:)',
          });
        }
        throw error;
      }
      // Listen for the signals before announcing readiness: a caller may stop us the moment it reads the ready line.
      const stopped = waitForSignal();
      printReady(server, flags, json);
      await stopped;
      await server.close();
      if (!json) process.stderr.write('scanctl: emulator stopped\n');
    });
}

function parseInteger(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UserError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

function printReady(
  server: Awaited<ReturnType<typeof import('../../emulator/server.js').startEmulatorServer>>,
  flags: ServeFlags,
  json: boolean,
): void {
  const { emulator } = server;
  const appId = emulator.config.defaultAppId;
  const app = appId ? emulator.store.apps.get(appId) : undefined;
  const keys = appId ? readyKeys(emulator, appId) : null;
  const now = new Date(emulator.clock.now()).toISOString();
  if (json) {
    process.stdout.write(
      `${JSON.stringify({
        event: 'ready',
        base_url: server.url,
        console_url: `${server.url}/`,
        port: server.port,
        pid: process.pid,
        db: flags.db,
        fixtures: emulator.config.fixturesPath,
        app_id: appId,
        test_secret_key: keys?.secret ?? null,
        test_publishable_key: keys?.publishable ?? null,
        clock: now,
        version: emulator.config.version,
      })}\n`,
    );
    return;
  }
  const lines = [
    `${bold(`scanctl emulator ${emulator.config.version}`)} listening on ${bold(server.url)}`,
    '',
    table([
      ['console', `${server.url}/ (sign in, deliveries, settings, keys, clock in the browser)`],
      ['database', `${flags.db}${flags.db === ':memory:' ? ' (in memory)' : ''}`],
      ['fixtures', server.fixturesLoaded ? `${server.fixturesLoaded} (loaded)` : `${emulator.config.fixturesPath ?? 'none'} (kept from the database)`],
      ['clock', `${now} (virtual: scanctl clock advance 15m)`],
      ['default app', app ? `${app.id} (${app.name})` : 'none'],
      ['test secret key', keys?.secret ?? 'not in the fixtures'],
      ['test publishable', keys?.publishable ?? 'not in the fixtures'],
    ]),
    '',
    dim(`Try: scanctl session mint --user member_123${server.port === 7226 ? '' : ` --base-url ${server.url}`}`),
    dim('Press Ctrl+C to stop.'),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The default app's test keys from the fixtures, for the banner; none when the file no longer reads. */
function readyKeys(emulator: Parameters<typeof fixtureKeys>[0], appId: string) {
  try {
    return fixtureKeys(emulator, appId).test;
  } catch {
    return null;
  }
}
