import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, median, removeDir, ROOT, tempDir } from '../lib.js';

const TESTS = 200;
const PYTHON = '/usr/bin/python3';

/** 200 tests, each minting a session: with the plugin's `scanctl` fixture (a restore after each), or with a stand-in that calls nothing. */
const testFile = (withEmulator, restored = true) => `
import time, json, os
import pytest
${withEmulator ? (restored ? '' : '\n@pytest.fixture\ndef scanctl(scanctl_emulator):\n    yield scanctl_emulator\n') : '\n@pytest.fixture\ndef scanctl():\n    yield None\n'}
@pytest.mark.parametrize("n", range(${TESTS}))
def test_mint(scanctl, n):
    ${withEmulator ? 'assert scanctl.mint_session(f"member_{n}")["session_token"].startswith("vst_")' : 'assert n >= 0'}
`;

/** Times each restore the fixture makes (the plugin's own call, wrapped). */
const CONFTEST = `
import json, os, time
import pytest
import scanctl._emulator as emulator

timings = []
restore = emulator.Emulator.restore

def timed(self, checkpoint):
    started = time.perf_counter()
    try:
        return restore(self, checkpoint)
    finally:
        timings.append((time.perf_counter() - started) * 1000)

emulator.Emulator.restore = timed

def pytest_sessionfinish(session):
    with open(os.environ["RESTORE_TIMINGS"], "w") as f:
        json.dump(timings, f)
`;

/**
 * Issue 44: what the emulator costs a Python suite. 200 tests under the pytest plugin, each minting
 * a session and restored to the session's checkpoint after it (one HTTP call), against the same
 * 200 tests with a stand-in fixture that calls nothing, run alternately in the same run; the
 * emulator's share is the difference in wall time (its start and stop included), per test.
 */
export default {
  id: 'pytest-restore',
  title: 'pytest: 200 tests with a per-test restore, the emulator\u2019s share per test',
  baseline: 'the same 200 tests without the emulator',
  target: { max: 5, unit: 'ms' },
  async run({ quick, runs: asked }) {
    const runs = asked ?? (quick ? 2 : 5);
    if (!existsPython()) return { notMeasured: 'no Debian python3 with pytest here' };
    const dir = tempDir();
    try {
      cpSync(join(ROOT, 'clients', 'python'), join(dir, 'lib'), { recursive: true });
      execFileSync(PYTHON, ['-m', 'venv', '--without-pip', '--system-site-packages', join(dir, 'venv')]);
      const python = join(dir, 'venv', 'bin', 'python');
      execFileSync(python, ['-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-index', join(dir, 'lib')], { cwd: dir });
      const bin = join(dir, 'scanctl');
      writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
      chmodSync(bin, 0o755);
      for (const [name, withEmulator, restored] of [
        ['with', true, true],
        ['unrestored', true, false],
        ['without', false, false],
      ]) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, 'test_bench.py'), testFile(withEmulator, restored));
        if (withEmulator) writeFileSync(join(dir, name, 'conftest.py'), CONFTEST);
      }
      const env = { ...process.env, SCANCTL_BIN: bin, RESTORE_TIMINGS: join(dir, 'restores.json') };
      for (const name of ['SCANCTL_BASE_URL', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD']) delete env[name];
      const wall = (name) => {
        const started = performance.now();
        // The plugin loads from its entry point; the run without it turns it off.
        const plugin = name === 'without' ? ['-p', 'no:scanctl'] : [];
        try {
          execFileSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...plugin], { cwd: join(dir, name), env, stdio: 'pipe' });
        } catch (error) {
          throw new Error(`pytest failed: ${String(error.stdout).slice(-1500)}`, { cause: error });
        }
        return performance.now() - started;
      };
      const withMs = [];
      const withoutMs = [];
      const unrestoredMs = [];
      const restores = [];
      wall('with'); // warm-up: Python's and Node's first runs
      for (let i = 0; i < runs; i++) {
        withMs.push(wall('with'));
        restores.push(...JSON.parse(readFileSync(env.RESTORE_TIMINGS, 'utf8')));
        withoutMs.push(wall('without'));
        unrestoredMs.push(wall('unrestored'));
      }
      const share = (median(withMs) - median(withoutMs)) / TESTS;
      return {
        note: `median of ${runs} runs of each, alternated; ${TESTS} tests each minting a session (its own call to the emulator, in the share); the share includes the emulator's start and stop; restores timed inside the plugin (${restores.length} of them)`,
        rows: [
          { label: "the emulator's share of the wall time, per test", value: share, unit: 'ms' },
          {
            label: 'of which the per-test restore (against the same tests, emulator, no restore)',
            value: (median(withMs) - median(unrestoredMs)) / TESTS,
            unit: 'ms',
          },
          { label: 'one restore (median, over HTTP from Python)', value: median(restores), unit: 'ms' },
          { label: 'wall time of the run with the emulator', value: median(withMs), unit: 'ms', target: { max: TESTS * 20, unit: 'ms' } },
        ],
      };
    } finally {
      removeDir(dir);
    }
  },
};

function existsPython() {
  try {
    execFileSync(PYTHON, ['-c', 'import pytest, setuptools, pip'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
