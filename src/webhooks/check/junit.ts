import { toJUnitXml } from '../../util/junit.js';
import type { CheckReport } from './run.js';

const seconds = (ms: number | null) => (ms ?? 0) / 1000;

/** The report as JUnit XML, one testcase per check, for CI systems that collect test results. */
export function toJUnit(report: CheckReport): string {
  return toJUnitXml(
    'scanctl webhook check',
    `webhook receiver ${report.url}`,
    report.checks.map((check) => ({
      classname: 'scanctl.webhook.check',
      name: `${check.name} [${check.rules.join(', ')}]`,
      // The answer-time check sums nothing of its own: its latency is the slowest of the others.
      seconds: check.id === 'answer-time' ? 0 : seconds(check.latency_ms),
      ...(check.passed ? { output: check.reason } : { failure: check.reason, failureType: check.id }),
    })),
  );
}
