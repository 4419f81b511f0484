import type { ProbeKit } from './kit.js';

/**
 * What a probe needs beyond the secret key; a target that lacks it gets the probe skipped with
 * the reason in SKIP_REASONS. The emulator (found by its /_scanctl/info) has all of them.
 */
export type Need = 'clock' | 'clock-or-slow' | 'control' | 'portal' | 'receiver' | 'scans' | 'attestation';

export const SKIP_REASONS: Record<Need, string> = {
  clock: 'needs the clock: only an emulator can move time this far',
  'clock-or-slow': 'needs the clock: run against an emulator, or pass --slow to wait in real time',
  control: "needs the emulator's control plane (an operator's setting)",
  portal: 'needs the portal: pass --portal-cookie',
  receiver: 'needs a webhook receiver: pass --receiver-url (a URL the target can reach, forwarded here)',
  scans: 'reports scans, which count as usage: pass --billable',
  attestation: 'needs an attested device: the stub attestation exists only in the emulator',
};

/** One check of one rule of docs/rules.md, through the service's public interface. */
export interface Probe {
  rule: string;
  title: string;
  /** About how many requests it sends to the public routes (for the plan said up front). */
  requests: number;
  needs?: readonly Need[];
  /**
   * The account limit it runs into on purpose (SES-9 the quota, SES-10 the rate limit). Any other
   * probe that meets one diverges because the account ran out, not the rule: the run stops.
   */
  provokes?: AccountLimit;
  /** Runs the check; resolves with what was seen, or throws a Divergence (or a Skip). */
  run(kit: ProbeKit): Promise<string>;
}

/** The error codes of an account's limits (ERR-*, 429): the daily session quota and the rate limit. */
export type AccountLimit = 'quota_exceeded' | 'rate_limited';

/**
 * An account limit ran out in the middle of the run (a probe met it without provoking it): the
 * rules after it would diverge for that reason alone, so the run stops, saying which limit and
 * what to change.
 */
export class AccountLimitReached extends Error {
  constructor(
    readonly rule: string,
    readonly limit: AccountLimit,
    readonly request: string,
    message: string,
  ) {
    super(message);
    this.name = 'AccountLimitReached';
  }
}

/** A rule this suite cannot observe from outside, listed so that every rule has its line. */
export interface Unprobed {
  rule: string;
  title: string;
  reason: string;
}

/** The target answered otherwise than the rule says: the request, the expectation and the answer. */
export class Divergence extends Error {
  constructor(
    readonly request: string,
    readonly expected: string,
    readonly answer: string,
  ) {
    super(`${request}: expected ${expected}, got ${answer}`);
    this.name = 'Divergence';
  }
}

/** The probe cannot run against this target; the reason is its line. */
export class Skip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Skip';
  }
}
