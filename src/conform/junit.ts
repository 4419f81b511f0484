import type { ConformReport } from '../contract/conformance.js';
import { toJUnitXml } from '../util/junit.js';

/** The report as JUnit XML: one testcase per rule, a divergence a failure, a skip skipped. */
export function conformJUnit(report: ConformReport): string {
  return toJUnitXml(
    'scanctl conform',
    `conform ${report.plan.target}`,
    report.outcomes.map((o) => ({
      classname: 'scanctl.conform',
      name: `${o.rule}: ${o.title}`,
      seconds: 0,
      ...(o.verdict === 'diverges'
        ? { failure: o.reason, failureType: o.rule }
        : o.verdict === 'skipped'
          ? { skipped: o.reason }
          : { output: o.reason }),
    })),
  );
}
