import type { ConformPlan, ProbeOutcome } from '../../../contract/conformance.js';
import { green, red, yellow } from '../../style.js';

const MARK = { pass: green('pass    '), diverges: red('diverges'), skipped: yellow('skipped ') } as const;

/** What the run will do, before it does it. */
export function renderPlan(plan: ConformPlan): string {
  return [
    `Conformance of ${plan.target} (${plan.emulator ? 'a scanctl emulator' : 'not an emulator: probes that need its clock or control plane are skipped'})`,
    `${plan.probes} probes run, ${plan.skipped} skipped; about ${plan.requests} requests, at most ${plan.max_rate_per_second} a second`,
    'It creates:',
    ...plan.creates.map((item) => `  - ${item}`),
    '',
  ].join('\n');
}

/** One line per rule; a divergence adds the request, the expectation and the answer. */
export function renderOutcome(o: ProbeOutcome): string {
  const line = `${MARK[o.verdict]}  ${o.rule.padEnd(8)} ${o.title}: ${o.verdict === 'diverges' && o.request ? 'differs' : o.reason}`;
  if (o.verdict !== 'diverges' || !o.request) return line;
  return [line, `          request:  ${o.request}`, `          expected: ${o.expected}`, `          answer:   ${o.answer}`].join('\n');
}
