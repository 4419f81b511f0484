/** One test case of a JUnit report: a check or a probe. */
export interface JUnitCase {
  classname: string;
  name: string;
  seconds: number;
  /** A failure's message; undefined when the case passed or was skipped. */
  failure?: string;
  /** The failure's type attribute (default: the name). */
  failureType?: string;
  /** Why it was skipped. */
  skipped?: string;
  /** What it said when it passed. */
  output?: string;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function testcase(c: JUnitCase): string {
  const open = `    <testcase classname="${escape(c.classname)}" name="${escape(c.name)}" time="${c.seconds.toFixed(3)}"`;
  if (c.failure !== undefined)
    return `${open}>\n      <failure message="${escape(c.failure)}" type="${escape(c.failureType ?? c.name)}">${escape(c.failure)}</failure>\n    </testcase>`;
  if (c.skipped !== undefined) return `${open}>\n      <skipped message="${escape(c.skipped)}"/>\n    </testcase>`;
  return `${open}>\n      <system-out>${escape(c.output ?? '')}</system-out>\n    </testcase>`;
}

/** A JUnit XML document of one suite, for CI systems that collect test results. */
export function toJUnitXml(suites: string, suite: string, cases: readonly JUnitCase[]): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.failure === undefined && c.skipped !== undefined).length;
  const total = cases.reduce((sum, c) => sum + c.seconds, 0).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escape(suites)}" tests="${cases.length}" failures="${failures}" time="${total}">`,
    `  <testsuite name="${escape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${total}">`,
    ...cases.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
