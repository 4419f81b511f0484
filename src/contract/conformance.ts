import { z } from 'zod';

/**
 * The vocabulary of `scanctl conform` (and of `webhook check`'s JUnit output): a probe checks one
 * rule of docs/rules.md and ends in one verdict. Its report, snapshot and cassette are files read
 * back later, so each is one schema here.
 */
const Verdict = z.enum(['pass', 'diverges', 'skipped']);

export const ProbeOutcome = z.lazy(() =>
  z.object({
    rule: z.string(),
    title: z.string(),
    verdict: Verdict,
    /** Why it passed, diverged or was skipped, in one line. */
    reason: z.string(),
    /** On a divergence: the request, what the rule expects, and what came back. */
    request: z.string().optional(),
    expected: z.string().optional(),
    answer: z.string().optional(),
  }),
);
export type ProbeOutcome = z.infer<typeof ProbeOutcome>;

export const ConformPlan = z.lazy(() =>
  z.object({
    target: z.string(),
    emulator: z.boolean(),
    run_prefix: z.string(),
    probes: z.number().int(),
    skipped: z.number().int(),
    /** An estimate: the requests the probes that run will send to the target's public routes. */
    requests: z.number().int(),
    creates: z.array(z.string()),
    max_rate_per_second: z.number(),
  }),
);
export type ConformPlan = z.infer<typeof ConformPlan>;

export const ConformReport = z.lazy(() =>
  z.object({
    object: z.literal('conform_report'),
    plan: ConformPlan,
    passed: z.number().int(),
    diverged: z.number().int(),
    skipped: z.number().int(),
    outcomes: z.array(ProbeOutcome),
    /** Requests sent to the target's public routes, the clean-up's included. */
    requests_sent: z.number().int(),
    /** What the clean-up at the end could not undo, one line each. */
    cleanup_problems: z.array(z.string()),
  }),
);
export type ConformReport = z.infer<typeof ConformReport>;

/** One answer of the target, normalized: ids, tokens and times replaced by their shape (`ses_<22>`, `<iso-time>`). */
const SnapshotAnswer = z.lazy(() =>
  z.object({
    request: z.string(),
    status: z.number().int().nullable(),
    body: z.unknown(),
  }),
);

export const SnapshotRule = z.lazy(() => z.object({ rule: z.string(), verdict: Verdict, answers: z.array(SnapshotAnswer) }));
export type SnapshotRule = z.infer<typeof SnapshotRule>;

export const Snapshot = z.lazy(() =>
  z.object({
    object: z.literal('conform_snapshot'),
    version: z.literal(1),
    target: z.string(),
    emulator: z.boolean(),
    rules: z.array(SnapshotRule),
  }),
);
export type Snapshot = z.infer<typeof Snapshot>;

/** One exchange of a `scanctl record` cassette (NDJSON, one per line), secrets already redacted. */
export const CassetteExchange = z.lazy(() =>
  z.object({
    seq: z.number().int(),
    /** When the request arrived, ms after the recording started: a replay keeps the pace. */
    at_ms: z.number().int(),
    /**
     * When the answer's last byte went back, ms after the recording started: requests that arrived
     * while another was in flight were in flight together, and their order at the upstream is unknown.
     * Absent in a cassette written before it was kept.
     */
    answered_ms: z.number().int().optional(),
    method: z.string(),
    /** Path and query, with ids of earlier answers kept so a replay can substitute them. */
    path: z.string(),
    /** A header that came more than once (Set-Cookie) is a list, in the order it came. */
    request_headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    request_body: z.string().nullable(),
    status: z.number().int(),
    response_headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    response_body: z.string().nullable(),
  }),
);
export type CassetteExchange = z.infer<typeof CassetteExchange>;
