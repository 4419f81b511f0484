import type { ConformReport, Snapshot, SnapshotRule } from '../contract/conformance.js';
import type { Exchange } from './exchanges.js';
import { normalizeBody, normalizeRequest } from './normalize.js';

/** Every answer of the run, normalized and grouped by the rule whose probe asked. */
export function buildSnapshot(report: ConformReport, exchanges: readonly Exchange[]): Snapshot {
  return {
    object: 'conform_snapshot',
    version: 1,
    target: report.plan.target,
    emulator: report.plan.emulator,
    rules: report.outcomes.map((outcome) => ({
      rule: outcome.rule,
      verdict: outcome.verdict,
      answers: exchanges
        .filter((e) => e.rule === outcome.rule)
        .map((e) => ({ request: normalizeRequest(e.method, e.path), status: e.status, body: normalizeBody(e.body) }))
        // Sorted: a burst's answers arrive in any order, and the same answers are the same record.
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    })),
  };
}

export interface RuleDifference {
  rule: string;
  /** same, differs, or present on one side only. */
  state: 'same' | 'differs' | 'only-a' | 'only-b';
  detail: string;
}

const compact = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

function compareRule(a: SnapshotRule, b: SnapshotRule): RuleDifference {
  const answers = compareAnswers(a, b);
  if (a.verdict !== b.verdict)
    return { rule: a.rule, state: 'differs', detail: `verdict ${a.verdict} vs ${b.verdict}${answers ? `; ${answers}` : ''}` };
  if (answers) return { rule: a.rule, state: 'differs', detail: answers };
  return { rule: a.rule, state: 'same', detail: `${a.verdict}, ${a.answers.length} answers alike` };
}

/** The first answer that differs, in words; null when all are alike. */
function compareAnswers(a: SnapshotRule, b: SnapshotRule): string | null {
  const count = Math.max(a.answers.length, b.answers.length);
  for (let i = 0; i < count; i += 1) {
    const left = a.answers[i];
    const right = b.answers[i];
    if (!left || !right) {
      const extra = (left ?? right)!;
      return `${a.answers.length} answers vs ${b.answers.length}; first unmatched: ${extra.request} ${extra.status}`;
    }
    if (JSON.stringify(left) === JSON.stringify(right)) continue;
    if (left.request !== right.request) return `request ${i + 1}: ${left.request} vs ${right.request}`;
    if (left.status !== right.status)
      return `${left.request}: status ${left.status} vs ${right.status} (${compact(left.body)} vs ${compact(right.body)})`;
    return `${left.request} ${left.status}: body ${compact(left.body)} vs ${compact(right.body)}`;
  }
  return null;
}

/** Compares two snapshots rule by rule, in A's order, then B's rules A lacks. */
export function diffSnapshots(a: Snapshot, b: Snapshot): RuleDifference[] {
  const byRule = new Map(b.rules.map((r) => [r.rule, r]));
  const seen = new Set<string>();
  const differences = a.rules.map((left) => {
    seen.add(left.rule);
    const right = byRule.get(left.rule);
    return right ? compareRule(left, right) : { rule: left.rule, state: 'only-a' as const, detail: `only in A (${left.verdict})` };
  });
  for (const right of b.rules)
    if (!seen.has(right.rule)) differences.push({ rule: right.rule, state: 'only-b', detail: `only in B (${right.verdict})` });
  return differences;
}
