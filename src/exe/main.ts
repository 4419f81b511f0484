// The single executable's command line (bin/build-exe.mjs, docs/executable.md): what bin/scanctl.js
// does for the npm package, in the one Node start the executable has. Part of its main script
// (loader.ts): the user's Node flags and --version cost no load of the CLI's bundle.
import { DEFAULT_NODE_FLAGS } from '../cli/global-options.js';
import { packageVersion } from '../util/package-root.js';

/** Set on the one restart that hands Node the user's flags, so the restarted executable runs the CLI. */
const RESTARTED = 'SCANCTL_EXE_NODE_OPTIONS_APPLIED';
/** V8's own sizing, where SCANCTL_NODE_FLAGS asks for other heap flags than the executable's. */
const V8_DEFAULT_HEAP = ['--max-semi-space-size=0', '--max-old-space-size=0'] as const;

/** Runs the executable's command line: once per process, from its main script (loader.ts); `runCli` runs the CLI's bundle. */
export function runExecutable(runCli: () => void): void {
  const args = process.argv.slice(2);
  const restarted = process.env[RESTARTED] === '1';
  delete process.env[RESTARTED];
  const nodeOptions = restarted ? '' : userNodeOptions();
  if (nodeOptions !== '') restartWith(nodeOptions, args);
  else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) process.stdout.write(`${versionLine()}\n`);
  else runCli();
}

/** `0.1.0 (single executable, Node v24.22.3, linux-x64)`: which build, and the Node it carries. */
function versionLine(): string {
  return `${packageVersion()} (single executable, Node ${process.version}, ${process.platform}-${process.arch})`;
}

/**
 * The executable starts with the heap flags in its execArgv, and Node reads no NODE_OPTIONS in it
 * (the build's execArgvExtension is "cli"), so that the flags cost no second start. Where the user
 * gave NODE_OPTIONS or SCANCTL_NODE_FLAGS, the executable starts once more with them as
 * `--node-options`, which Node applies after the execArgv: the user's flags win, as with the npm
 * package's launcher. Empty when nothing was given.
 */
function userNodeOptions(): string {
  const parts: string[] = [];
  const flags = process.env.SCANCTL_NODE_FLAGS;
  if (flags !== undefined && flags.trim() !== DEFAULT_NODE_FLAGS.join(' ')) {
    // SCANCTL_NODE_FLAGS replaces the executable's flags: V8's own sizing first, then the user's.
    parts.push(...V8_DEFAULT_HEAP, ...flags.split(/\s+/).filter(Boolean));
  }
  const given = process.env.NODE_OPTIONS?.trim();
  if (given) parts.push(given);
  return parts.join(' ');
}

function restartWith(options: string, args: string[]): void {
  const argv = [process.execPath, `--node-options=${options}`, ...args];
  const env = { ...process.env, [RESTARTED]: '1' };
  if (typeof process.execve === 'function') process.execve(process.execPath, argv, env);
  // Windows has no execve: a child with this process's streams, and its exit status as ours.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const child = spawnSync(process.execPath, argv.slice(1), { stdio: 'inherit', env });
  process.exit(child.status ?? 1);
}
