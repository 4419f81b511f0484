import { Command, Option } from 'commander';
import { CHOICES } from '../../contract/choices.js';
import { DEFAULT_DB, DEFAULT_HOST, DEFAULT_PORT, SERVE_RECORD_FILE } from '../../emulator/serve-state.js';
import type { RunningServer } from '../../emulator/server.js';
import { addEmulatorOptions, parseEmulatorFlags, type EmulatorFlags, type EmulatorRunOptions } from '../emulator-flags.js';
import { UserError } from '../errors.js';
import { contextOf, type CommandContext } from '../context.js';
import { waitForInterrupt } from '../io.js';
import { bold, dim } from '../style.js';
import { table } from '../output.js';
import { wholeNumber } from '../parse-options.js';
import { invocation } from '../invocation.js';
import type * as Seed from '../../emulator/seed.js';
import type * as Secrets from '../../webhooks/signing-secret.js';
import { environmentOf } from '../../contract/environment.js';
import { streamLogger } from '../../util/logger.js';

/** Loaded with the emulator, when serve starts. */
let fixtureKeys: typeof Seed.fixtureKeys;
let signingSecretOf: typeof Secrets.signingSecretOf;

interface ServeFlags extends EmulatorFlags {
  port: number;
  host: string;
  reset?: boolean;
  allowedHost: string[];
  stopOnStdinClose?: boolean;
}

export function register(program: Command): void {
  const serve = program
    .command('serve')
    .description('run the local emulator of every route (backend, portal, device) on SQLite with a virtual clock')
    .addOption(
      new Option('--port <port>', 'port to listen on; 0 picks a free one')
        .env('SCANCTL_PORT')
        .argParser(wholeNumber(0, 65535))
        .default(DEFAULT_PORT),
    )
    .addOption(new Option('--host <host>', 'address to bind').env('SCANCTL_HOST').default(DEFAULT_HOST));
  addEmulatorOptions(serve, { db: DEFAULT_DB, env: true, rateLimit: CHOICES.defaultRateLimitPerSecond })
    // Not Option.env(): commander would treat SCANCTL_RESET=0 as set and wipe the database.
    .addOption(new Option('--reset', 'start from an empty database (env SCANCTL_RESET=1)'))
    .addOption(
      new Option(
        '--allowed-host <name>',
        'admit requests for this host name besides loopback (repeatable; name or name:port), e.g. a CI service name',
      )
        .argParser((value: string, previous: string[] = []) => [...previous, value])
        .default([]),
    )
    .addOption(
      new Option(
        '--stop-on-stdin-close',
        'stop when stdin ends (the process that started serve closed it, or died): the test libraries pass it, so an emulator never outlives a killed test run',
      ),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const ctx = contextOf(command);
      const allowedHosts = allowedHostsOf(flags.allowedHost, ctx.io.env.SCANCTL_ALLOWED_HOSTS);
      checkBindAddress(flags.host, allowedHosts);
      const graceMs = stopGraceMs(ctx.io.env.SCANCTL_STOP_GRACE_MS);
      const maxConnections = envWholeNumber('SCANCTL_MAX_CONNECTIONS', ctx.io.env.SCANCTL_MAX_CONNECTIONS, 1, 1_000_000);
      const run = await parseEmulatorFlags(flags, ctx);
      const { startForCli, stopForCli, nowServing, stopSummary } = await import('../run-emulator.js');
      const server = await startForCli(run, {
        port: flags.port,
        host: flags.host,
        db: flags.db,
        fixtures: flags.fixtures ?? null,
        reset: Boolean(flags.reset) || /^(1|true|yes|on)$/i.test(ctx.io.env.SCANCTL_RESET ?? ''),
        stateFile: SERVE_RECORD_FILE,
        cwd: ctx.io.cwd,
        allowedHosts,
        maxConnections,
        logger: streamLogger(ctx.io.stderr),
      });
      ({ fixtureKeys } = await import('../../emulator/seed.js'));
      ({ signingSecretOf } = await import('../../webhooks/signing-secret.js'));
      // Listen for the signals before announcing readiness: a caller may stop us the moment it reads the ready line.
      const stopped = flags.stopOnStdinClose ? Promise.race([waitForInterrupt(ctx.io), stdinClosed(ctx)]) : waitForInterrupt(ctx.io);
      printReady(ctx, server, flags, run);
      nowServing(server);
      if (server.stateFileError) {
        ctx.io.stderr.write(
          `scanctl: warning: cannot write ${SERVE_RECORD_FILE} (${server.stateFileError}): other commands will not find this emulator; pass them --base-url ${server.url}\n`,
        );
      }
      await stopped;
      // A stdin still read would keep the process alive after the stop.
      if (flags.stopOnStdinClose) ctx.io.stdin.pause();
      const report = await stopForCli(server, run.exportOnExit, graceMs);
      if (!ctx.json)
        ctx.io.stderr.write(
          `scanctl: emulator stopped${stopSummary(report)}${run.exportOnExit ? `; state written to ${run.exportOnExit}` : ''}\n`,
        );
    });
}

/** Resolves when stdin ends: the write end its starter held is closed (on purpose, or because the starter died). */
function stdinClosed(ctx: CommandContext): Promise<void> {
  return new Promise((resolve) => {
    ctx.io.stdin.on('end', () => resolve());
    ctx.io.stdin.on('close', () => resolve());
    ctx.io.stdin.on('error', () => resolve());
    ctx.io.stdin.resume();
  });
}

/** CHOICE-35: SCANCTL_STOP_GRACE_MS shortens (or lengthens) the time requests in flight get at a stop. */
function stopGraceMs(value: string | undefined): number | undefined {
  return envWholeNumber('SCANCTL_STOP_GRACE_MS', value, 0, 600_000);
}

/** A whole number from the environment (tests and operators tune serve's bounds), or undefined when unset. */
function envWholeNumber(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UserError(`${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

/** --allowed-host values plus SCANCTL_ALLOWED_HOSTS (comma or space separated); each must be a bare host name. */
function allowedHostsOf(flags: string[], env: string | undefined): string[] {
  const names = [...flags, ...(env ?? '').split(/[\s,]+/)].map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?$/.test(name)) {
      throw new UserError(`--allowed-host must be a host name or name:port (no scheme, no path), not "${name}"`);
    }
  }
  return [...new Set(names)];
}

const LOOPBACK_ADDRESSES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Binding beyond loopback exposes the control plane (no authentication) to the network: name who may call. */
function checkBindAddress(host: string, allowedHosts: string[]): void {
  if (LOOPBACK_ADDRESSES.has(host.toLowerCase())) return;
  if (allowedHosts.length === 0) {
    throw new UserError(`--host ${host} listens beyond loopback: name the host names clients will use with --allowed-host NAME`, {
      hint: 'the control plane has no authentication; see docs/security.md',
    });
  }
  process.stderr.write(
    `scanctl: warning: listening on ${host}: anyone who can reach this address can drive the emulator (no authentication); admitted host names: ${allowedHosts.join(', ')}\n`,
  );
}

function printReady(ctx: CommandContext, server: RunningServer, flags: ServeFlags, run: EmulatorRunOptions): void {
  const { emulator } = server;
  const appId = emulator.config.defaultAppId;
  const app = appId ? emulator.store.apps.get(appId) : undefined;
  const keys = appId ? readyKeys(emulator, appId) : null;
  const now = new Date(emulator.clock.now()).toISOString();
  if (ctx.json) {
    ctx.io.stdout.write(
      `${JSON.stringify({
        object: 'serve_ready',
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
        frozen_clock: run.clock.frozen,
        seed: run.seed,
        version: emulator.config.version,
        // The environment contract (docs/environment.md), as `exec` gives it to its command.
        // Read, never issued here: a seeded run draws the same ids with or without --json.
        env: environmentOf(
          server.url,
          appId
            ? {
                appId,
                secretKey: keys?.secret ?? null,
                publishableKey: keys?.publishable ?? null,
                webhookSecret: signingSecretOf(emulator.store, emulator.box, appId),
              }
            : null,
        ),
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
      [
        'fixtures',
        server.fixturesLoaded ? `${server.fixturesLoaded} (loaded)` : `${emulator.config.fixturesPath ?? 'none'} (kept from the database)`,
      ],
      ['clock', `${now} (virtual${run.clock.frozen ? ', frozen' : ''}: scanctl clock advance 15m)`],
      ...(run.seed === null ? [] : [['seed', `${run.seed} (every id and token is predictable: for tests only)`] as [string, string]]),
      ['default app', app ? `${app.id} (${app.name})` : 'none'],
      ['test secret key', keys?.secret ?? 'not in the fixtures'],
      ['test publishable', keys?.publishable ?? 'not in the fixtures'],
    ]),
    '',
    dim(
      `Try: ${invocation(ctx.io.env, { launcher: ctx.io.launcher, cwd: ctx.io.cwd })} session mint --user member_123${server.port === 7226 ? '' : ` --base-url ${server.url}`}`,
    ),
    dim('Press Ctrl+C to stop.'),
  ];
  ctx.io.stdout.write(`${lines.join('\n')}\n`);
}

/** The default app's test keys from the fixtures, for the banner; none when the file no longer reads. */
function readyKeys(emulator: Parameters<typeof fixtureKeys>[0], appId: string) {
  try {
    return fixtureKeys(emulator, appId).test;
  } catch {
    return null;
  }
}
