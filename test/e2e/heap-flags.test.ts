import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe, TEST_EXE, type ServeProcess } from '../helpers/cli.js';

const FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=1024'];
const started: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of started.splice(0)) await serve.stop();
});

/** The node arguments a process runs with, before the script (Linux). */
function nodeArgs(pid: number): string[] {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return argv.slice(
    1,
    argv.findIndex((arg) => arg.endsWith('scanctl.js')),
  );
}

async function serveWith(env: Record<string, string>, before: string[] = []): Promise<ServeProcess> {
  const serve = await startServe([], { env, before });
  started.push(serve);
  return serve;
}

// The single executable's flags are its execArgv, tested in test/exe/.
describe.skipIf(process.platform !== 'linux' || typeof process.execve !== 'function' || TEST_EXE)(
  "serve's heap flags (bin/scanctl.js)",
  () => {
    it("serve runs with Node's heap flags in the process it was started as (same pid, exit code 0 on SIGTERM)", async () => {
      const serve = await serveWith({ NODE_OPTIONS: '' });
      expect(serve.ready.pid).toBe(serve.child.pid);
      expect(nodeArgs(serve.child.pid!)).toEqual(FLAGS);
      expect(await serve.stop()).toBe(0);
      started.pop();
    });

    it('a global option and its value before the command (--app app_demo serve) still get serve its flags', async () => {
      expect(nodeArgs((await serveWith({ NODE_OPTIONS: '' }, ['--app', 'app_demo', '--json'])).child.pid!)).toEqual(FLAGS);
    });

    it("the user's own heap flags in NODE_OPTIONS win: serve is not started again", async () => {
      const serve = await serveWith({ NODE_OPTIONS: '--max-old-space-size=2048' });
      expect(nodeArgs(serve.child.pid!)).toEqual([]);
    });

    it("SCANCTL_NODE_FLAGS replaces the flags; empty leaves V8's own sizing", async () => {
      expect(nodeArgs((await serveWith({ SCANCTL_NODE_FLAGS: '--max-semi-space-size=16' })).child.pid!)).toEqual([
        '--max-semi-space-size=16',
      ]);
      expect(nodeArgs((await serveWith({ SCANCTL_NODE_FLAGS: '' })).child.pid!)).toEqual([]);
    });

    it('exec runs its emulator with the flags too; the command it runs does not inherit them', async () => {
      const script =
        "const fs=require('fs');const a=fs.readFileSync('/proc/'+process.ppid+'/cmdline','utf8').split('\\0');console.log(JSON.stringify({parent:a,own:process.execArgv}))";
      const result = await runCli(['exec', '--', process.execPath, '-e', script], { env: { NODE_OPTIONS: '' } });
      expect(result.code).toBe(0);
      const seen = JSON.parse(result.stdout.trim().split('\n').pop()!) as { parent: string[]; own: string[] };
      expect(seen.parent.slice(1, 3)).toEqual(FLAGS);
      expect(seen.own.filter((arg) => arg.startsWith('--max'))).toEqual([]);
    });
  },
);
