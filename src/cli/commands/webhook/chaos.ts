import { Argument, Option, type Command } from 'commander';
import { formatDuration } from '../../../clock/duration.js';
import { ChaosSetRequest, type Chaos } from '../../../contract/chaos.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { fieldOf } from '../../parse-contract-options.js';
import { parseDelay } from '../../parse-options.js';

interface ChaosFlags {
  drop?: number;
  duplicate?: number;
  delay?: { delay_ms: number | null; delay_probability: number };
  reorder?: boolean;
  failFirst?: number;
  failStatus: number;
  seed?: number;
}

const percent = (p: number) => `${Math.round(p * 1000) / 10}%`;

export function describeChaos(c: Chaos): string {
  if (!c.enabled) return `No delivery chaos on ${c.app_id}.`;
  const parts: string[] = [];
  if (c.fail_first > 0)
    parts.push(`fail the first ${c.fail_first} attempt${c.fail_first === 1 ? '' : 's'} of each delivery with ${c.fail_status}`);
  if (c.drop > 0) parts.push(`drop ${percent(c.drop)} of attempts`);
  if (c.duplicate > 0) parts.push(`duplicate ${percent(c.duplicate)}`);
  if (c.delay_probability > 0) {
    const what = c.delay_ms === null ? 'a seeded delay' : formatDuration(c.delay_ms);
    parts.push(
      c.delay_probability === 1 ? `delay every attempt by ${what}` : `delay ${percent(c.delay_probability)} of attempts by ${what}`,
    );
  }
  if (c.reorder) parts.push('reorder');
  return `Delivery chaos on ${c.app_id}: ${parts.length ? parts.join(', ') : 'on, but every rate is 0'}; seed ${c.seed}.\nReplay exactly: ${replayCommand(c)}`;
}

export function replayCommand(c: Chaos): string {
  const args = ['scanctl webhook chaos'];
  if (c.drop > 0) args.push(`--drop ${c.drop}`);
  if (c.duplicate > 0) args.push(`--duplicate ${c.duplicate}`);
  if (c.delay_probability > 0) {
    const delay =
      c.delay_ms === null
        ? String(c.delay_probability)
        : c.delay_probability === 1
          ? formatDuration(c.delay_ms)
          : `${formatDuration(c.delay_ms)}@${c.delay_probability}`;
    args.push(`--delay ${delay}`);
  }
  if (c.reorder) args.push('--reorder');
  if (c.fail_first > 0) args.push(`--fail-first ${c.fail_first}`);
  if (c.fail_status !== 500) args.push(`--fail-status ${c.fail_status}`);
  args.push(`--seed ${c.seed}`, `--app ${c.app_id}`);
  return args.join(' ');
}

/** The body's fields: each flag's bounds come from the schema the emulator checks the body with. */
const field = ChaosSetRequest.unwrap().shape;

/** scanctl webhook chaos: seeded delivery chaos, per app. */
export function register(group: Command): void {
  group
    .command('chaos')
    .description(
      'seeded, reproducible delivery chaos for an app: drop, duplicate, delay, reorder, fail the first N attempts; "off" to stop; no flags shows it',
    )
    .addArgument(new Argument('[off]', '"off" turns chaos off').choices(['off']))
    .addOption(new Option('--drop <p>', 'drop this share of attempts (not sent; retried as usual)').argParser(fieldOf(field.drop)))
    .addOption(
      new Option('--duplicate <p>', 'send this share of deliveries twice (same bytes, same Service-Event-Id)').argParser(
        fieldOf(field.duplicate),
      ),
    )
    .addOption(
      new Option('--delay <duration|p>', 'delay attempts: 30s (every one), 0.2 (a share, by a seeded amount) or 30s@0.2').argParser(
        parseDelay,
      ),
    )
    .option('--reorder', 'shuffle the order of deliveries queued together (seeded)')
    .addOption(
      new Option('--fail-first <n>', 'the first n attempts of every delivery fail as if the receiver answered --fail-status').argParser(
        fieldOf(field.fail_first),
      ),
    )
    .addOption(new Option('--fail-status <code>', 'status of --fail-first attempts').argParser(fieldOf(field.fail_status)).default(500))
    .addOption(
      new Option('--seed <n>', 'seed of every draw (printed when not given, so a CI failure replays exactly)').argParser(
        fieldOf(field.seed),
      ),
    )
    .addHelpText('after', '\nExample: scanctl webhook chaos --duplicate 0.2 --fail-first 2 --seed 7\n         scanctl webhook chaos off')
    .action(async (off: 'off' | undefined, flags: ChaosFlags, command: Command) => {
      const ctx = contextOf(command);
      const given =
        (['drop', 'duplicate', 'delay', 'reorder', 'failFirst', 'seed'] as const).some((k) => flags[k] !== undefined) ||
        command.getOptionValueSource('failStatus') === 'cli';
      if (off !== undefined && given) throw new UserError('"off" takes no other flags');
      const appId = await ctx.appId();
      const client = ctx.control();
      let view: Chaos;
      if (off !== undefined) view = await client.clearChaos(appId);
      else if (!given) view = await client.chaos(appId);
      else {
        const setting: ChaosSetRequest = { reorder: Boolean(flags.reorder), fail_status: flags.failStatus };
        if (flags.drop !== undefined) setting.drop = flags.drop;
        if (flags.duplicate !== undefined) setting.duplicate = flags.duplicate;
        if (flags.delay !== undefined) Object.assign(setting, flags.delay);
        if (flags.failFirst !== undefined) setting.fail_first = flags.failFirst;
        if (flags.seed !== undefined) setting.seed = flags.seed;
        view = await client.setChaos(appId, setting);
      }
      ctx.print(view, describeChaos);
    });
}
