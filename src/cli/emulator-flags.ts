import { Option, type Command } from 'commander';
import { renameSync, writeFileSync } from 'node:fs';
import { CHOICES } from '../contract/choices.js';
import type { StateFile } from '../contract/state.js';
import { MAX_SEED } from '../contract/seeded.js';
import type { CommandContext } from './context.js';
import { UserError } from './errors.js';
import { clockStart, duration, wholeNumber } from './parse-options.js';

/**
 * The options `serve` and `exec` share: what the emulator starts from (database, fixtures, an
 * exported state), how its run repeats (seed, clock start, frozen clock) and what it leaves behind.
 * Every value is checked here, before anything starts: bad input is one line and exit 2.
 */
export interface EmulatorFlags {
  db: string;
  fixtures?: string;
  rateLimit: number;
  seed?: number;
  /** ms since the epoch */
  clockStart?: number;
  frozenClock?: boolean;
  import?: string;
  exportOnExit?: string;
  attemptTimeout?: number;
}

export interface EmulatorRunOptions {
  rateLimitPerSecond: number;
  seed: number | null;
  clock: { startMs: number | null; frozen: boolean };
  initialState: StateFile | null;
  exportOnExit: string | null;
  /** CHOICE-23: the per-attempt limit of a webhook delivery, real ms (null: CHOICES.webhookAttemptTimeoutMs). */
  webhookAttemptTimeoutMs: number | null;
}

export function addEmulatorOptions(command: Command, defaults: { db: string; env: boolean; rateLimit: number }): Command {
  const env = (option: Option, name: string) => (defaults.env ? option.env(name) : option);
  return command
    .addOption(env(new Option('--db <path>', 'SQLite file, or :memory:').default(defaults.db), 'SCANCTL_DB'))
    .addOption(
      env(
        new Option(
          '--fixtures <file>',
          'fixture file to load (upserted on every start); default: the bundled fixtures/default.json seeds a fresh database',
        ),
        'SCANCTL_FIXTURES',
      ),
    )
    .addOption(
      env(
        new Option('--rate-limit <n>', 'requests per second per secret key before 429 rate_limited; 0 turns it off')
          .argParser(wholeNumber(0, 1_000_000_000))
          .default(defaults.rateLimit),
        'SCANCTL_RATE_LIMIT',
      ),
    )
    .addOption(
      new Option(
        '--seed <n>',
        'draw every id and token from this seed: the same commands give the same bytes (predictable: for tests only)',
      ).argParser(wholeNumber(0, MAX_SEED)),
    )
    .addOption(
      new Option(
        '--clock-start <time>',
        'start the virtual clock at this time (2026-01-01 or 2026-01-01T09:00:00Z: UTC or an offset)',
      ).argParser(clockStart),
    )
    .option('--frozen-clock', 'the clock moves only when told (clock advance/set), never with real time')
    .addOption(
      env(
        new Option(
          '--attempt-timeout <duration>',
          `how long one webhook attempt may take, real time (default ${CHOICES.webhookAttemptTimeoutMs / 1000}s, as the service); shorter makes retries against a hung receiver play fast in tests`,
        ).argParser(duration({ min: 10, max: CHOICES.webhookAttemptTimeoutMs })),
        'SCANCTL_ATTEMPT_TIMEOUT',
      ),
    )
    .option('--import <file>', 'start from a state written by `scanctl state export` (or --export-on-exit)')
    .addOption(
      env(
        new Option('--export-on-exit <file>', 'when the emulator stops, write its whole state there (signing secrets included, mode 0600)'),
        'SCANCTL_EXPORT_ON_EXIT',
      ),
    );
}

/** Reads what the flags name (the state file to import): after this, nothing is left to refuse. */
export async function parseEmulatorFlags(flags: EmulatorFlags, ctx: CommandContext): Promise<EmulatorRunOptions> {
  return {
    rateLimitPerSecond: flags.rateLimit,
    seed: flags.seed ?? null,
    clock: { startMs: flags.clockStart ?? null, frozen: Boolean(flags.frozenClock) },
    initialState: flags.import === undefined ? null : await readStateFile(flags.import, ctx),
    exportOnExit: flags.exportOnExit === undefined ? null : ctx.path(flags.exportOnExit),
    webhookAttemptTimeoutMs: flags.attemptTimeout ?? null,
  };
}

/** A file written by `scanctl state export`, checked against its schema; `-` reads stdin. */
export async function readStateFile(file: string, ctx: CommandContext): Promise<StateFile> {
  const text = (await ctx.read(file)).toString('utf8');
  // The state schema loads with the command that needs it, not with every command.
  const { StateFile } = await import('../contract/state.js');
  const { parseJson } = await import('../contract/parse-json.js');
  const parsed = parseJson(StateFile, text);
  if (parsed.ok) return parsed.value;
  if (parsed.stage === 'json') throw new UserError(`${file} is not a scanctl state export (not valid JSON: ${parsed.message})`);
  throw new UserError(`${file} is not a scanctl state export (${parsed.path || 'the file'}: ${parsed.reason})`);
}

/** Written next to the target and renamed over it: a reader never sees half a state. */
export function writeStateFile(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, file);
}
