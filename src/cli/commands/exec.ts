import { CommanderError, Option, type Command } from 'commander';
import { spawn, type ChildProcess } from 'node:child_process';
import { errorCode, errorMessage } from '../../util/caught.js';
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { constants } from 'node:os';
import { listeningPort } from '../../util/listening-port.js';
import { CHOICES } from '../../contract/choices.js';
import { ENVIRONMENT, environmentOf } from '../../contract/environment.js';
import type { TestCredentials } from '../../emulator/test-credentials.js';
import { packagePath } from '../../util/package-root.js';
import { streamLogger } from '../../util/logger.js';
import { contextOf } from '../context.js';
import { addEmulatorOptions, parseEmulatorFlags, type EmulatorFlags } from '../emulator-flags.js';
import { ExitWith, UserError } from '../errors.js';
import { httpUrl } from '../http-url.js';

interface ExecFlags extends EmulatorFlags {
  forward?: string;
}

/** Exit code of a command the shell could not find (as a shell answers). */
const COMMAND_NOT_FOUND = 127;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const unsetContract = Object.fromEntries(Object.keys(ENVIRONMENT).map((name) => [name, undefined]));

/**
 * `scanctl exec [options] -- COMMAND [ARGS...]`: a fresh emulator on a free port for the length
 * of one command (a test suite, a CI step), which finds it in its environment. No ready line to
 * wait for, no PID to remember: the emulator stops when the command ends, and scanctl exits with
 * the command's exit code (128 + the signal's number when a signal ended it).
 */
export function register(program: Command): void {
  const exec = program
    .command('exec')
    .description(
      "run COMMAND against a fresh emulator on a free port (SCANCTL_BASE_URL and the app's keys in its environment); exit with its exit code",
    )
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('[command...]', 'the command and its arguments, after --')
    // Bad input is one line: no usage hint after the error.
    .showHelpAfterError(false)
    // `scanctl exec node -e ...`: the command's own options were read as exec's.
    .exitOverride((error) => {
      if (error.code !== 'commander.unknownOption') throw error;
      throw new CommanderError(
        error.exitCode,
        error.code,
        `${error.message} (an option of the command? put -- before it: scanctl exec [options] -- COMMAND [ARGS...])`,
      );
    });
  // A test run: no rate limit unless asked, as startEmulator (CHOICE-2).
  addEmulatorOptions(exec, { db: ':memory:', env: false, rateLimit: CHOICES.testRunRateLimitPerSecond })
    .addOption(
      new Option('--forward <url>', "point the app's webhooks at this URL (the receiver of the backend the command starts)").argParser(
        httpUrl,
      ),
    )
    .addHelpText(
      'after',
      `\nThe command gets ${Object.keys(ENVIRONMENT).slice(0, -1).join(', ')} and ${Object.keys(ENVIRONMENT).at(-1)}\n(the fixtures' default app and its test keys: docs/environment.md). SIGINT and SIGTERM are passed on to it.\nThe emulator runs inside this scanctl process, not a process of its own; the command is its child.\nNo readiness wait is needed: the port listens before the command starts, and its first requests are\nheld until the emulator answers (with --db FILE or --import, the emulator is ready before it starts).\nExample (the same bytes every run: a seed, and a frozen clock that starts at a fixed time):\n  scanctl exec --seed 1 --clock-start 2026-01-01T00:00:00Z --frozen-clock -- npm test`,
    )
    .action(async (commandLine: string[], flags: ExecFlags, command: Command) => {
      const ctx = contextOf(command);
      const [file, ...args] = commandLine;
      if (!file) throw new UserError('exec needs a command after --: scanctl exec [options] -- COMMAND [ARGS...]');
      const forward = flags.forward ?? null;
      const run = await parseEmulatorFlags(flags, ctx);
      const childEnv = (baseUrl: string, credentials: TestCredentials | null) => {
        // The contract's variables replace any the caller had: an unknown one is unset, never inherited.
        const env: Record<string, string | undefined> = { ...ctx.io.env, ...unsetContract, ...environmentOf(baseUrl, credentials) };
        for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
        return env;
      };

      // When the fixture file alone tells the command's environment (a fresh in-memory database),
      // the port is bound and the command started first, and the emulator loads meanwhile: its
      // requests wait until the emulator answers. Otherwise the emulator starts first.
      const known =
        flags.db === ':memory:' && !run.initialState
          ? await fixtureCredentials(flags.fixtures === undefined ? null : ctx.path(flags.fixtures))
          : null;
      const gate = known ? await gatedServer() : null;
      const child = gate && known ? startChild(file, args, { cwd: ctx.io.cwd, env: childEnv(gate.url, known) }) : null;

      const { startForCli, stopForCli } = await import('../run-emulator.js');
      let server;
      try {
        server = await startForCli(run, {
          port: 0,
          host: '127.0.0.1',
          db: flags.db,
          fixtures: flags.fixtures ?? null,
          reset: false,
          stateFile: null,
          cwd: ctx.io.cwd,
          boundServer: gate?.server,
          logger: streamLogger(ctx.io.stderr),
        });
      } catch (error) {
        if (child) await child.stop();
        gate?.server.close();
        throw error;
      }
      let code: number;
      try {
        const { testCredentials } = await import('../../emulator/test-credentials.js');
        const credentials = testCredentials(server.emulator);
        if (forward && credentials) await pointWebhooksAt(server, credentials.appId, forward);
        gate?.open(server.requestListener);
        // The HTTP adapter loads on the command's first request, not before: a command that sends
        // none does not wait for it, and one that does waits as long as it would for a warm-up.
        code = await (child ?? startChild(file, args, { cwd: ctx.io.cwd, env: childEnv(server.url, credentials) })).exited;
      } finally {
        await stopForCli(server, run.exportOnExit);
      }
      if (code !== 0) throw new ExitWith(code);
    });
}

/**
 * The default app's test credentials as the fixture file gives them, read without the emulator;
 * null unless the file names the first app's test keys and signing secret.
 */
async function fixtureCredentials(file: string | null): Promise<TestCredentials | null> {
  // The fixtures' schema only, not the emulator: the command starts while the emulator loads.
  const { parseFixtures } = await import('../../emulator/fixture-file.js');
  try {
    const path = file ?? packagePath('fixtures', 'default.json');
    const app = parseFixtures(readFileSync(path, 'utf8'), path).apps[0];
    const test = app?.keys.test;
    if (!app?.webhook_secret || !test) return null;
    return { appId: app.id, secretKey: test.secret, publishableKey: test.publishable, webhookSecret: app.webhook_secret };
  } catch {
    return null; // The emulator reads the file again and says what is wrong with it.
  }
}

/** A loopback server bound now whose requests wait until `open` gives it the emulator's listener. */
async function gatedServer(): Promise<{ server: Server; url: string; open(listener: RequestListener): void }> {
  let open!: (listener: RequestListener) => void;
  const ready = new Promise<RequestListener>((resolve) => (open = resolve));
  const server = createServer((req, res) => void ready.then((listener) => listener(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${listeningPort(server)}`, open };
}

/** APP-2: setting a webhook_url is what the portal does; the app keeps (or is issued) its signing secret. */
async function pointWebhooksAt(server: import('../../emulator/server.js').RunningServer, appId: string, url: string): Promise<void> {
  const { updateAppSettings } = await import('../../emulator/domain/apps.js');
  const { emulator } = server;
  const app = emulator.store.apps.get(appId)!;
  updateAppSettings(emulator.store, emulator.ids, emulator.box, emulator.clock.now(), app, { webhook_url: url });
}

/** Starts the command with inherited stdio, passing SIGINT and SIGTERM on; `exited` resolves with its exit code. */
function startChild(file: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
  const notStarted = (error: unknown): number => {
    if (errorCode(error) !== 'ENOENT') throw new UserError(`exec: cannot run ${file}: ${errorMessage(error)}`);
    process.stderr.write(`scanctl: exec: ${file}: command not found\n`);
    return COMMAND_NOT_FOUND;
  };
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
  } catch (error) {
    // Some failures (ELOOP, EACCES on a folder) throw at once instead of emitting 'error'.
    const exited = Promise.resolve().then(() => notStarted(error));
    exited.catch(() => undefined);
    return { exited, stop: () => Promise.resolve() };
  }
  const listeners = FORWARDED_SIGNALS.map((signal) => [signal, () => void child.kill(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  const exited = new Promise<number>((resolve, reject) => {
    const done = () => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
    };
    child.once('error', (error) => {
      done();
      try {
        resolve(notStarted(error));
      } catch (refused) {
        reject(refused instanceof Error ? refused : new Error(String(refused)));
      }
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
  // The command may fail to start before anyone awaits `exited` (it starts while the emulator loads):
  // handled here, so that is not an unhandled rejection; the await below still sees it.
  exited.catch(() => undefined);
  return {
    exited,
    /** The emulator could not start: the command goes too. */
    async stop() {
      child.kill('SIGTERM');
      await exited.catch(() => undefined);
    },
  };
}
