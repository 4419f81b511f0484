import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  CLIENTS,
  clientEnv,
  expectEmulatorGoneAfterKill,
  hasDebianPython,
  installPythonClient,
  processesNaming,
  runIn,
  scanctlBinForClients,
} from '../helpers/clients.js';
import { tempDir } from '../helpers/temp.js';

/**
 * clients/python as a Python team gets it: copied outside the repository, pip-installed from the
 * path into a virtual environment over Debian's packages, its own suite run with plain pytest and
 * with `pytest -n 4`. Every emulator it started is gone afterwards, and the temporary folder it ran
 * with is empty.
 */
// serve_asgi's test runs where Debian's python3-uvicorn is installed (.ci/run installs it), else it is the one skip.
const EXPECTED = spawnSync('/usr/bin/python3', ['-c', 'import uvicorn']).status === 0 ? /\b15 passed\b/ : /\b14 passed, 1 skipped\b/;

describe.skipIf(!hasDebianPython())('clients/python: the pytest plugin, installed with pip from a copy', () => {
  let dir = '';
  let python = '';

  beforeAll(async () => {
    ({ dir, python } = await installPythonClient());
    cpSync(join(CLIENTS, 'python', 'tests'), join(dir, 'tests'), { recursive: true });
  }, 120_000);

  async function pytest(args: string[]) {
    const record = tempDir('scanctl-client-python-record-');
    const tmp = tempDir('scanctl-client-python-tmp-');
    const basetemp = join(tempDir('scanctl-client-python-base-'), 'b');
    mkdirSync(basetemp);
    const ran = await runIn(dir, python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--basetemp', basetemp, ...args, 'tests'], {
      ...clientEnv({ SCANCTL_TEST_RECORD: record, TMPDIR: tmp }),
    });
    const emulators = readdirSync(record).map(
      (file) => JSON.parse(readFileSync(join(record, file), 'utf8')) as { worker: string; pid: number; base_url: string },
    );
    return { ...ran, emulators, leftInTmp: readdirSync(tmp) };
  }

  it(
    'CHOICE-50, WH-4, WH-9: its suite passes under plain pytest (entry point loaded), one emulator, stopped, no file left',
    { timeout: 120_000 },
    async () => {
      const result = await pytest([]);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(EXPECTED);
      expect(result.emulators.map((e) => e.worker)).toEqual(['main']);
      expect(result.emulators.filter((e) => alive(e.pid))).toEqual([]);
      expect(result.leftInTmp).toEqual([]);
    },
  );

  it(
    'CHOICE-50: under pytest -n 4 each worker has its own emulator (port, database), all stopped afterwards',
    { timeout: 120_000 },
    async () => {
      const result = await pytest(['-n', '4']);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(EXPECTED);
      expect(result.emulators.map((e) => e.worker).sort()).toEqual(['gw0', 'gw1', 'gw2', 'gw3']);
      expect(new Set(result.emulators.map((e) => e.base_url)).size).toBe(4);
      expect(new Set(result.emulators.map((e) => e.pid)).size).toBe(4);
      expect(result.emulators.filter((e) => alive(e.pid))).toEqual([]);
      expect(result.leftInTmp).toEqual([]);
      expect(processesNaming(dir)).toEqual([]);
    },
  );

  it('CHOICE-50: a test run killed with -9 leaves no emulator: serve stops when its stdin pipe closes', { timeout: 60_000 }, async () => {
    const script = [
      'import os, signal, sys, scanctl',
      'e = scanctl.start()',
      'print(e.pid, flush=True)',
      'os.kill(os.getpid(), signal.SIGKILL)',
    ].join('\n');
    const tmp = tempDir('scanctl-client-python-killed-');
    const ran = await runIn(dir, python, ['-c', script], clientEnv({ TMPDIR: tmp }));
    await expectEmulatorGoneAfterKill(ran.output, tmp);
  });

  it('the scanctl it was handed is the one helper gives (SCANCTL_BIN)', () => {
    expect(clientEnv().SCANCTL_BIN).toBe(scanctlBinForClients());
  });
});
