import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { alive, CLIENTS, expectEmulatorGoneAfterKill, hasTool, installRubyClient, processesNaming, runIn } from '../helpers/clients.js';
import { tempDir } from '../helpers/temp.js';

const hasRuby = hasTool('ruby') && hasTool('gem');
const hasRspec = hasTool('rspec');

/**
 * clients/ruby as a Ruby team gets it: copied outside the repository, its gem built and installed
 * with `gem install --local` into a GEM_HOME of its own, its own Minitest suite run from another
 * folder (so `require "scanctl"` loads the installed gem). Its emulator is gone afterwards, and the
 * temporary folder it ran with is empty.
 */
describe.skipIf(!hasRuby)(`clients/ruby: the gem, built and installed from a copy${hasRuby ? '' : ' (skipped: no ruby)'}`, () => {
  let dir = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    ({ dir, env } = await installRubyClient());
    cpSync(join(CLIENTS, 'ruby', 'test'), join(dir, 'test'), { recursive: true });
    cpSync(join(CLIENTS, 'ruby', 'spec'), join(dir, 'spec'), { recursive: true });
    cpSync(join(CLIENTS, 'ruby', '.rspec'), join(dir, '.rspec'));
  }, 120_000);

  it(
    'CHOICE-50, WH-4, WH-9: its Minitest suite passes on the installed gem, one emulator, stopped, no file left',
    { timeout: 120_000 },
    async () => {
      const record = tempDir('scanctl-client-ruby-record-');
      const tmp = tempDir('scanctl-client-ruby-tmp-');
      const ran = await runIn(dir, 'ruby', ['test/test_library.rb'], { ...env, SCANCTL_TEST_RECORD: record, TMPDIR: tmp });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/\b14 runs, \d+ assertions, 0 failures, 0 errors, 0 skips/);
      const emulators = readdirSync(record).map((file) => JSON.parse(readFileSync(join(record, file), 'utf8')) as { pid: number });
      expect(emulators).toHaveLength(1);
      expect(emulators.filter((e) => alive(e.pid))).toEqual([]);
      expect(readdirSync(tmp)).toEqual([]);
      expect(processesNaming(dir)).toEqual([]);
    },
  );

  it.skipIf(!hasRspec)(
    `CHOICE-50: under RSpec (Scanctl::RSpec.install): restored after each example, scanctl_no_restore kept, stopped after the suite${hasRspec ? '' : ' (skipped: no rspec)'}`,
    { timeout: 120_000 },
    async () => {
      const record = tempDir('scanctl-client-ruby-rspec-record-');
      const tmp = tempDir('scanctl-client-ruby-rspec-tmp-');
      const ran = await runIn(dir, 'rspec', [], { ...env, SCANCTL_TEST_RECORD: record, TMPDIR: tmp });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/\b5 examples, 0 failures\b/);
      const [emulator] = readdirSync(record).map((file) => JSON.parse(readFileSync(join(record, file), 'utf8')) as { pid: number });
      expect(emulator && alive(emulator.pid)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
      expect(processesNaming(dir)).toEqual([]);
    },
  );

  it('loads the installed gem, not a copy of lib/ beside the tests', async () => {
    const ran = await runIn(dir, 'ruby', ['-e', 'require "scanctl"; puts $LOADED_FEATURES.grep(%r{/scanctl\\.rb\\z})'], env);
    expect(ran.output.trim()).toBe(join(dir, 'gems', 'gems', 'scanctl-0.1.0', 'lib', 'scanctl.rb'));
  });

  it('CHOICE-50: a test run killed with -9 leaves no emulator: serve stops when its stdin pipe closes', { timeout: 60_000 }, async () => {
    const tmp = tempDir('scanctl-client-ruby-killed-');
    const script = 'require "scanctl"; e = Scanctl.start; puts e.pid; $stdout.flush; Process.kill("KILL", Process.pid)';
    const ran = await runIn(dir, 'ruby', ['-e', script], { ...env, TMPDIR: tmp });
    await expectEmulatorGoneAfterKill(ran.output, tmp);
  });
});
