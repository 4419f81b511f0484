import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  CLIENTS,
  clientEnv,
  expectEmulatorGoneAfterKill,
  hasJavaAndJunit,
  installJavaClient,
  JUNIT,
  processesNaming,
  runIn,
} from '../helpers/clients.js';
import { tempDir } from '../helpers/temp.js';

const available = hasJavaAndJunit();

/**
 * clients/java as a Java team gets it: copied outside the repository, its jar built as its README
 * says, its own JUnit 5 suite compiled against the jar and run through JUnit's console launcher,
 * one by one and with the classes in parallel. Every emulator it started is gone afterwards, and the
 * temporary folder it ran with is empty.
 */
describe.skipIf(!available)(
  `clients/java: the JUnit 5 extension, its jar built from a copy${available ? '' : ' (skipped: no javac or junit5)'}`,
  () => {
    let dir = '';
    let classPath = '';

    beforeAll(async () => {
      const { dir: copy, jar } = await installJavaClient();
      dir = copy;
      const tests = join(CLIENTS, 'java', 'src', 'test', 'java', 'scanctl');
      const sources = readdirSync(tests).map((file) => join(tests, file));
      const built = await runIn(
        dir,
        'javac',
        ['--release', '17', '-cp', `${JUNIT.api}:${jar}`, '-d', 'test-classes', ...sources],
        clientEnv(),
      );
      expect(built.code, built.output).toBe(0);
      classPath = `${jar}:${join(dir, 'test-classes')}`;
    }, 120_000);

    async function launch(config: string[]) {
      const record = tempDir('scanctl-client-java-record-');
      const tmp = tempDir('scanctl-client-java-tmp-');
      const args = [
        '-Djava.io.tmpdir=' + tmp,
        '-jar',
        JUNIT.launcher,
        '--disable-banner',
        '--details=summary',
        '-cp',
        classPath,
        '--scan-classpath',
      ];
      const ran = await runIn(
        dir,
        'java',
        [...args, ...config.flatMap((c) => ['--config', c])],
        clientEnv({ SCANCTL_TEST_RECORD: record, TMPDIR: tmp }),
      );
      const emulators = readdirSync(record).map(
        (file) => JSON.parse(readFileSync(join(record, file), 'utf8')) as { worker: string; pid: number; base_url: string },
      );
      return { ...ran, emulators, leftInTmp: readdirSync(tmp) };
    }

    for (const [how, config] of [
      ['one class after another', []],
      [
        'with the classes in parallel',
        ['junit.jupiter.execution.parallel.enabled=true', 'junit.jupiter.execution.parallel.mode.classes.default=concurrent'],
      ],
    ] as const) {
      it(
        `CHOICE-50, WH-4, WH-9: its suite passes ${how}: one emulator per test class, each stopped, no file left`,
        { timeout: 180_000 },
        async () => {
          const result = await launch([...config]);
          expect(result.code, result.output).toBe(0);
          expect(result.output).toMatch(/\[\s+16 tests successful\s+\]/);
          expect(result.output).toMatch(/\[\s+0 tests failed\s+\]/);
          expect(result.emulators.map((e) => e.worker).sort()).toEqual(['OtherClassTest', 'ScanctlTest']);
          expect(new Set(result.emulators.map((e) => e.base_url)).size).toBe(2);
          expect(result.emulators.filter((e) => alive(e.pid))).toEqual([]);
          expect(result.leftInTmp).toEqual([]);
          expect(processesNaming(dir)).toEqual([]);
        },
      );
    }

    it('CHOICE-50: a test run killed with -9 leaves no emulator: serve stops when its stdin pipe closes', { timeout: 60_000 }, async () => {
      const tmp = tempDir('scanctl-client-java-killed-');
      const ran = await runIn(dir, 'java', ['-cp', classPath, 'scanctl.Child', 'killed'], clientEnv({ TMPDIR: tmp }));
      await expectEmulatorGoneAfterKill(ran.output, tmp);
    });
  },
);
