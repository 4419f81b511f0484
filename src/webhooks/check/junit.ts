import type { CheckReport } from './run.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** The report as JUnit XML, one testcase per check, for CI systems that collect test results. */
export function toJUnit(report: CheckReport): string {
  const total = report.checks.reduce((sum, c) => sum + (c.id === 'answer-time' ? 0 : (c.latency_ms ?? 0)), 0);
  const cases = report.checks.map((check) => {
    const name = escape(`${check.name} [${check.rules.join(', ')}]`);
    const open = `    <testcase classname="scanctl.webhook.check" name="${name}" time="${seconds(check.id === 'answer-time' ? 0 : check.latency_ms)}"`;
    if (check.passed) return `${open}>\n      <system-out>${escape(check.reason)}</system-out>\n    </testcase>`;
    return `${open}>\n      <failure message="${escape(check.reason)}" type="${escape(check.id)}">${escape(check.reason)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="scanctl webhook check" tests="${report.checks.length}" failures="${report.failed}" time="${seconds(total)}">`,
    `  <testsuite name="${escape(`webhook receiver ${report.url}`)}" tests="${report.checks.length}" failures="${report.failed}" errors="0" skipped="0" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
