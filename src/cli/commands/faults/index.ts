import type { Command } from 'commander';
import { FAULT_CODE_PATTERN, FAULT_METHODS, type FaultCreateRequest, type FaultView } from '../../../contract/faults.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { columns } from '../../output.js';

interface AddFlags {
  route: string;
  status: string;
  code: string;
  count?: string;
  probability?: string;
  seed?: string;
  message?: string;
}


export function describeFault(f: FaultView): string {
  const when =
    f.probability !== null
      ? `with probability ${f.probability}`
      : f.count !== null
        ? `for the next ${f.count} call${f.count === 1 ? '' : 's'}`
        : 'on every call until cleared';
  return `${f.method} ${f.path} answers ${f.status} ${f.code} ${when}`;
}

function parseRoute(route: string): { method: FaultCreateRequest['method']; path: string } {
  // "POST /v1/sessions", or a bare path for any method.
  const parts = route.trim().split(/\s+/);
  if (parts.length === 1 && parts[0]!.startsWith('/')) parts.unshift('*');
  if (parts.length !== 2) throw new UserError(`--route must be "METHOD PATH", e.g. "POST /v1/sessions", not "${route}"`);
  const method = parts[0]!.toUpperCase();
  const path = parts[1]!;
  if (!(FAULT_METHODS as readonly string[]).includes(method)) throw new UserError(`--route: unknown method "${parts[0]}" (use ${FAULT_METHODS.join(', ')})`);
  if (!path.startsWith('/')) throw new UserError(`--route: the path must start with /, not "${path}"`);
  if (path === '/_scanctl' || path.startsWith('/_scanctl/')) throw new UserError("--route: the control plane (/_scanctl) can't be faulted");
  return { method: method as FaultCreateRequest['method'], path };
}

function number(value: string, flag: string, { min, max, integer }: { min: number; max: number; integer: boolean }): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UserError(`${flag} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not "${value}"`);
  }
  return n;
}

/** scanctl faults add|list|clear: make chosen routes answer a chosen error on purpose. */
export function register(group: Command): void {
  group
    .command('add')
    .description('answer a route with a chosen status and error code, for the next N calls or with a probability')
    .requiredOption('--route <route>', 'METHOD PATH, e.g. "POST /v1/sessions"; * for any method, :name for a segment, a trailing * for the rest')
    .requiredOption('--status <code>', 'HTTP status to answer, 400-599')
    .requiredOption('--code <code>', 'error code in lowercase snake case, e.g. rate_limited')
    .option('--count <n>', 'only the next n matching calls')
    .option('--probability <p>', 'each matching call fails with probability p (0..1), seeded')
    .option('--seed <n>', 'seed of the probability draws (printed when not given)')
    .option('--message <text>', 'the error message (default: says the fault was injected)')
    .addHelpText('after', '\nExample: scanctl faults add --route "POST /v1/sessions" --status 429 --code rate_limited --count 3')
    .action(async (flags: AddFlags, command: Command) => {
      const ctx = contextOf(command);
      if (flags.count !== undefined && flags.probability !== undefined) throw new UserError('give --count or --probability, not both');
      if (!FAULT_CODE_PATTERN.test(flags.code)) throw new UserError(`--code must be lowercase snake case, like rate_limited, not "${flags.code}"`);
      const request: FaultCreateRequest = {
        ...parseRoute(flags.route),
        status: number(flags.status, '--status', { min: 400, max: 599, integer: true }),
        code: flags.code,
      };
      if (flags.count !== undefined) request.count = number(flags.count, '--count', { min: 1, max: 1_000_000, integer: true });
      if (flags.probability !== undefined) request.probability = number(flags.probability, '--probability', { min: 0, max: 1, integer: false });
      if (flags.seed !== undefined) request.seed = number(flags.seed, '--seed', { min: 0, max: 2 ** 32 - 1, integer: true });
      if (flags.message !== undefined) request.message = flags.message;
      const fault = await ctx.extras().addFault(request);
      ctx.print(fault, (f) =>
        [`Added ${f.id}: ${describeFault(f)}.`, `Seed ${f.seed}${f.probability === null ? '' : ` (replay: --seed ${f.seed})`}. Clear it with: scanctl faults clear ${f.id}`].join('\n'),
      );
    });

  group
    .command('list')
    .description('the faults, with how often each matched and fired')
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.extras().faults();
      ctx.print(list, (l) =>
        l.data.length === 0
          ? 'No faults.'
          : columns(
              ['ID', 'ROUTE', 'ANSWER', 'WHEN', 'FIRED', 'SEED', 'STATE'],
              l.data.map((f) => [
                f.id,
                `${f.method} ${f.path}`,
                `${f.status} ${f.code}`,
                f.probability !== null ? `p=${f.probability}` : f.count !== null ? `${f.remaining}/${f.count} left` : 'always',
                `${f.injected}/${f.matched}`,
                String(f.seed),
                f.active ? 'active' : 'used up',
              ]),
            ),
      );
    });

  group
    .command('clear [id]')
    .description('remove one fault, or all of them')
    .action(async (id: string | undefined, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const result = await ctx.extras().clearFaults(id);
      ctx.print(result, (r) => (id ? `Cleared ${id}.` : `Cleared ${r.cleared} fault${r.cleared === 1 ? '' : 's'}.`));
    });
}
