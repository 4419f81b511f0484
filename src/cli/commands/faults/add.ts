import { Option, type Command } from 'commander';
import { FaultCreateRequest } from '../../../contract/faults.js';
import { contextOf } from '../../context.js';
import { fieldOf } from '../../parse-contract-options.js';
import { describeFault } from './describe.js';
import { parseRoute, type FaultRoute } from '../../parse-contract-options.js';
import { checkRouteIsDeclared } from './route.js';

interface AddFlags {
  route: FaultRoute;
  status: number;
  code: string;
  count?: number;
  probability?: number;
  seed?: number;
  message?: string;
}

/** The body's fields: each flag's bounds come from the schema the emulator checks the body with. */
const field = FaultCreateRequest.unwrap().shape;

/** `scanctl faults add`: make a chosen route answer a chosen error on purpose. */
export function register(group: Command): void {
  group
    .command('add')
    .description('answer a route with a chosen status and error code, for the next N calls or with a probability')
    .addOption(
      new Option(
        '--route <route>',
        'METHOD PATH, e.g. "POST /v1/sessions"; * for any method, :name for a segment, a trailing * for the rest',
      )
        .argParser(parseRoute)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--status <code>', 'HTTP status to answer, 400-599').argParser(fieldOf(field.status)).makeOptionMandatory())
    .addOption(
      new Option('--code <code>', 'error code in lowercase snake case, e.g. rate_limited')
        .argParser(fieldOf(field.code))
        .makeOptionMandatory(),
    )
    .addOption(new Option('--count <n>', 'only the next n matching calls').argParser(fieldOf(field.count)).conflicts('probability'))
    .addOption(
      new Option('--probability <p>', 'each matching call fails with probability p (0..1), seeded').argParser(fieldOf(field.probability)),
    )
    .addOption(new Option('--seed <n>', 'seed of the probability draws (printed when not given)').argParser(fieldOf(field.seed)))
    .addOption(new Option('--message <text>', 'the error message (default: says the fault was injected)').argParser(fieldOf(field.message)))
    .addHelpText('after', '\nExample: scanctl faults add --route "POST /v1/sessions" --status 429 --code rate_limited --count 3')
    .action(async (flags: AddFlags, command: Command) => {
      const ctx = contextOf(command);
      const { OPERATIONS } = await import('../../../contract/operations/index.js');
      checkRouteIsDeclared(flags.route, OPERATIONS);
      const request: FaultCreateRequest = { ...flags.route, status: flags.status, code: flags.code };
      if (flags.count !== undefined) request.count = flags.count;
      if (flags.probability !== undefined) request.probability = flags.probability;
      if (flags.seed !== undefined) request.seed = flags.seed;
      if (flags.message !== undefined) request.message = flags.message;
      const fault = await ctx.control().addFault(request);
      ctx.print(fault, (f) =>
        [
          `Added ${f.id}: ${describeFault(f)}.`,
          `Seed ${f.seed}${f.probability === null ? '' : ` (replay: --seed ${f.seed})`}. Clear it with: scanctl faults clear ${f.id}`,
        ].join('\n'),
      );
    });
}
