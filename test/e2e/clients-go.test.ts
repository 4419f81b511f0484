import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  clientEnv,
  expectEmulatorGoneAfterKill,
  GO_MODULE,
  hasTool,
  installGoClient,
  processesNaming,
  runIn,
} from '../helpers/clients.js';
import { tempDir } from '../helpers/temp.js';

const hasGo = hasTool('go', 'version');

/**
 * clients/go as a Go team gets it: copied outside the repository, required by a module of the team's
 * through a `replace` to the copy (its README's `go mod edit`), its own test file run there in two
 * packages, so `go test -p 2` runs two test binaries at once. Every emulator it started is gone
 * afterwards, and the temporary folder it ran with is empty.
 */
describe.skipIf(!hasGo)(`clients/go: package scanctltest, required through a replace to a copy${hasGo ? '' : ' (skipped: no go)'}`, () => {
  let team = '';

  beforeAll(async () => {
    team = await installGoClient(['one', 'two']);
  }, 120_000);

  async function goTest(args: string[]) {
    const record = tempDir('scanctl-client-go-record-');
    const tmp = tempDir('scanctl-client-go-tmp-');
    const ran = await runIn(team, 'go', ['test', '-count=1', ...args, './...'], clientEnv({ SCANCTL_TEST_RECORD: record, TMPDIR: tmp }));
    const emulators = readdirSync(record).map(
      (file) => JSON.parse(readFileSync(join(record, file), 'utf8')) as { worker: string; pid: number; base_url: string },
    );
    return { ...ran, emulators, leftInTmp: readdirSync(tmp) };
  }

  it(
    'CHOICE-50, WH-4, WH-9: its suite passes under go test -p 2, t.Parallel: one emulator per Start, each stopped, no file left',
    { timeout: 240_000 },
    async () => {
      const result = await goTest(['-p', '2', '-v']);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/^ok\s+example\.com\/team\/one\s/m);
      expect(result.output).toMatch(/^ok\s+example\.com\/team\/two\s/m);
      expect(result.output).not.toMatch(/--- SKIP/);
      const workers = ['main', 'parallel0', 'parallel1', 'parallel2'];
      expect(result.emulators.map((e) => e.worker).sort()).toEqual([...workers.map((w) => `one-${w}`), ...workers.map((w) => `two-${w}`)]);
      expect(new Set(result.emulators.map((e) => e.base_url)).size).toBe(8);
      expect(new Set(result.emulators.map((e) => e.pid)).size).toBe(8);
      expect(result.emulators.filter((e) => alive(e.pid))).toEqual([]);
      expect(result.leftInTmp).toEqual([]);
      expect(processesNaming(team)).toEqual([]);
    },
  );

  it(
    'CHOICE-50: a test binary killed with -9 leaves no emulator: serve stops when its stdin pipe closes',
    { timeout: 120_000 },
    async () => {
      const tmp = tempDir('scanctl-client-go-killed-');
      const main = join(team, 'killed');
      mkdirSync(main);
      writeFileSync(
        join(main, 'main.go'),
        [
          'package main',
          '',
          'import (',
          '\t"fmt"',
          '\t"os"',
          '\t"syscall"',
          '',
          `\t"${GO_MODULE}"`,
          ')',
          '',
          'func main() {',
          '\te, err := scanctltest.New(scanctltest.Options{})',
          '\tif err != nil {',
          '\t\tpanic(err)',
          '\t}',
          '\tfmt.Println(e.PID)',
          '\tsyscall.Kill(os.Getpid(), syscall.SIGKILL)',
          '}',
          '',
        ].join('\n'),
      );
      const binary = join(tempDir('scanctl-client-go-bin-'), 'killed');
      const built = await runIn(team, 'go', ['build', '-o', binary, './killed'], clientEnv());
      expect(built.code, built.output).toBe(0);
      const ran = await runIn(team, binary, [], clientEnv({ TMPDIR: tmp }));
      await expectEmulatorGoneAfterKill(ran.output, tmp);
    },
  );
});
