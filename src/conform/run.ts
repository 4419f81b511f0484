import { ControlClient } from '../client/control.js';
import { ApiCallError, ContractError } from '../client/http.js';
import type { ConformPlan, ConformReport, ProbeOutcome, Snapshot } from '../contract/conformance.js';
import { OPS } from '../contract/operations/index.js';
import { ExchangeLog } from './exchanges.js';
import { ProbeKit, type EmulatorSide, type KitOptions } from './kit.js';
import { ErrorBody } from '../contract/errors.js';
import { parseJson } from '../contract/parse-json.js';
import type { Exchange } from './exchanges.js';
import { AccountLimitReached, Divergence, Skip, SKIP_REASONS, type AccountLimit, type Need, type Probe } from './probe.js';
import { PROBES, UNPROBED } from './probes/index.js';
import { ConformReceiver } from './receiver.js';
import { buildSnapshot } from './snapshot.js';
import { errorMessage } from '../util/caught.js';

export interface ConformOptions extends Omit<KitOptions, 'receiver'> {
  /** The URL the target is told to deliver to; the receiver listens on receiverPort (default: its port). */
  receiverUrl?: string;
  receiverPort?: number;
  /** Requests per second to the public routes, at most. */
  maxRate: number;
  /** Only these rules (all when empty). */
  only?: readonly string[];
}

export interface ConformHooks {
  onPlan?(plan: ConformPlan): void;
  onOutcome?(outcome: ProbeOutcome): void;
}

/** Whether a target may be told to deliver to a receiver on this machine without --receiver-url. */
const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** The emulator's control plane when the target is one (its /_scanctl/info answers), else null. */
async function detectEmulator(baseUrl: string): Promise<EmulatorSide | null> {
  const control = new ControlClient(baseUrl);
  try {
    return { control, info: await control.info() };
  } catch (error) {
    if (error instanceof ApiCallError || error instanceof ContractError) return null;
    throw error;
  }
}

async function startReceiver(options: ConformOptions, emulator: boolean): Promise<ConformReceiver | undefined> {
  if (options.receiverUrl) {
    const port = options.receiverPort ?? Number(new URL(options.receiverUrl).port || 0);
    return ConformReceiver.start(port, options.receiverUrl);
  }
  // An emulator on this machine reaches a receiver on loopback directly.
  if (emulator && isLoopback(options.baseUrl)) return ConformReceiver.start(options.receiverPort ?? 0);
  return undefined;
}

function missingNeed(probe: Probe, have: Record<Need, boolean>): Need | undefined {
  return probe.needs?.find((need) => !have[need]);
}

/**
 * Runs every probe against the target, one after another, and reports one outcome per rule:
 * pass, diverges (with the request, the expectation and the answer) or skipped (with why).
 */
export async function runConform(
  options: ConformOptions,
  hooks: ConformHooks = {},
): Promise<{ report: ConformReport; snapshot: Snapshot }> {
  const emulator = await detectEmulator(options.baseUrl);
  const receiver = await startReceiver(options, emulator !== null);
  const log = new ExchangeLog(options.maxRate);
  const kit = new ProbeKit({ ...options, receiver }, log, emulator);
  const have: Record<Need, boolean> = {
    clock: emulator !== null,
    'clock-or-slow': emulator !== null || options.slow,
    control: emulator !== null,
    portal: options.portalCookie !== undefined || emulator !== null,
    receiver: receiver !== undefined,
    attestation: emulator !== null,
    scans: options.billable || emulator !== null,
  };
  const chosen = (rule: string) => !options.only?.length || options.only.includes(rule);
  const probes = PROBES.filter((p) => chosen(p.rule));
  const running = probes.filter((p) => missingNeed(p, have) === undefined);
  const plan: ConformPlan = {
    target: options.baseUrl,
    emulator: emulator !== null,
    run_prefix: kit.prefix,
    probes: running.length,
    skipped: probes.length - running.length + UNPROBED.filter((u) => chosen(u.rule)).length,
    requests: running.reduce((sum, p) => sum + p.requests, 0),
    creates: creations(kit.prefix, running, receiver?.url),
    max_rate_per_second: options.maxRate,
  };
  hooks.onPlan?.(plan);

  const outcomes: ProbeOutcome[] = [];
  const cleanupProblems: string[] = [];
  const add = (outcome: ProbeOutcome) => {
    outcomes.push(outcome);
    hooks.onOutcome?.(outcome);
  };
  try {
    for (const probe of probes) {
      const need = missingNeed(probe, have);
      if (need) {
        add({ rule: probe.rule, title: probe.title, verdict: 'skipped', reason: SKIP_REASONS[need] });
        continue;
      }
      log.rule = probe.rule;
      const mark = log.exchanges.length;
      const outcome = await runProbe(probe, kit);
      // A limit of the account met by a probe that does not test it: the rest would diverge for it alone.
      const met = outcome.verdict === 'diverges' ? limitMet(log.exchanges.slice(mark), probe.provokes) : undefined;
      if (met) throw limitReached(probe.rule, met, options, emulator !== null);
      add(outcome);
    }
    for (const unprobed of UNPROBED.filter((u) => chosen(u.rule)))
      add({ rule: unprobed.rule, title: unprobed.title, verdict: 'skipped', reason: unprobed.reason });
  } finally {
    log.rule = 'cleanup';
    cleanupProblems.push(...(await kit.cleanUp()));
    for (const member of kit.members)
      await kit.api
        .call(OPS.deleteResults, { bearer: options.key, query: { host_user_ref: member } })
        .catch((error: unknown) => cleanupProblems.push(`DELETE /v1/results for ${member}: ${errorMessage(error)}`));
    await receiver?.close();
  }
  const count = (verdict: ProbeOutcome['verdict']) => outcomes.filter((o) => o.verdict === verdict).length;
  const report: ConformReport = {
    object: 'conform_report',
    plan,
    passed: count('pass'),
    diverged: count('diverges'),
    skipped: count('skipped'),
    outcomes,
    requests_sent: log.sent,
    cleanup_problems: cleanupProblems,
  };
  return { report, snapshot: buildSnapshot(report, log.exchanges) };
}

const ACCOUNT_LIMITS: readonly string[] = ['quota_exceeded', 'rate_limited'] satisfies AccountLimit[];
const isAccountLimit = (code: string): code is AccountLimit => ACCOUNT_LIMITS.includes(code);

/** The first answer among `exchanges` that is a 429 of an account limit other than the one `provoked`. */
function limitMet(
  exchanges: readonly Exchange[],
  provoked: AccountLimit | undefined,
): { limit: AccountLimit; request: string } | undefined {
  for (const exchange of exchanges) {
    if (exchange.status !== 429) continue;
    const body = parseJson(ErrorBody, exchange.body);
    const code = body.ok ? body.value.error.code : '';
    if (isAccountLimit(code) && code !== provoked) return { limit: code, request: `${exchange.method} ${exchange.path.split('?')[0]}` };
  }
  return undefined;
}

/** The one line that says which limit ran out and what to change. */
function limitReached(rule: string, met: { limit: AccountLimit; request: string }, options: ConformOptions, emulator: boolean) {
  const what =
    met.limit === 'quota_exceeded'
      ? `the app's daily session quota ran out (${met.request}: 429 quota_exceeded)`
      : `the target's rate limit refused a request (${met.request}: 429 rate_limited)`;
  const change =
    met.limit === 'quota_exceeded'
      ? `raise the app's daily session quota${emulator ? ' (scanctl app update --quota N)' : ''} or run again once its day has turned`
      : `run again with a --max-rate below ${options.maxRate}${emulator ? ", or a higher rate limit (the emulator's --rate-limit)" : ''}`;
  return new AccountLimitReached(
    rule,
    met.limit,
    met.request,
    `conform stopped at ${rule}: ${what}, and the rules after it would diverge for that alone; ${change}`,
  );
}

async function runProbe(probe: Probe, kit: ProbeKit): Promise<ProbeOutcome> {
  const base = { rule: probe.rule, title: probe.title };
  try {
    return { ...base, verdict: 'pass', reason: await probe.run(kit) };
  } catch (error) {
    if (error instanceof Skip) return { ...base, verdict: 'skipped', reason: error.message };
    if (error instanceof Divergence)
      return {
        ...base,
        verdict: 'diverges',
        reason: error.message,
        request: error.request,
        expected: error.expected,
        answer: error.answer,
      };
    if (error instanceof ApiCallError) {
      const request = `${error.method} ${error.path}`;
      const answer = `${error.status} ${error.error?.code ?? 'without the error body'}`;
      return {
        ...base,
        verdict: 'diverges',
        reason: `${request}: expected a success, got ${answer}`,
        request,
        expected: 'a success',
        answer,
      };
    }
    return { ...base, verdict: 'diverges', reason: errorMessage(error) };
  }
}

/** What the run will create, said before it starts. */
function creations(prefix: string, running: readonly Probe[], receiverUrl: string | undefined): string[] {
  const needs = new Set(running.flatMap((p) => p.needs ?? []));
  const items = [
    `session tokens for members ${prefix}_* (they expire unused after 15 minutes; results of those members are deleted at the end)`,
  ];
  if (needs.has('attestation')) items.push(`device installations ${prefix}_ins_*`);
  if (needs.has('scans')) items.push(`scans ${prefix}_scan_* (recorded; with a test key never billed)`);
  if (needs.has('receiver') && receiverUrl)
    items.push(
      `webhook_url set to ${receiverUrl} and results delivery switched on while it runs, then put back (one stored result, deleted)`,
    );
  if (needs.has('control')) items.push('on the emulator: its daily quota set to 0 for one request, then put back; its clock moved forward');
  return items;
}
