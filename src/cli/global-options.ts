/** The options every command takes, declared once: `buildProgram` registers them, and the CLI reference lists them. */
export const GLOBAL_OPTIONS = [
  {
    name: '--base-url',
    flags: '--base-url <url>',
    takesValue: true,
    description: 'service or emulator base URL (env SCANCTL_BASE_URL; default: the local emulator)',
    defaultHelp: 'the emulator in the nearest .scanctl/serve.json, else http://127.0.0.1:7226',
    env: 'SCANCTL_BASE_URL',
  },
  {
    name: '--app',
    flags: '--app <id>',
    takesValue: true,
    description: "app id for emulator commands (default: the emulator's default app)",
    defaultHelp: "the emulator's default app",
  },
  {
    name: '--json',
    flags: '--json',
    takesValue: false,
    description: 'machine output: the API JSON, one object per line for streams; errors as one JSON object',
    defaultHelp: 'off: human output',
  },
] as const;

/**
 * Node's heap flags for the emulator's long runs (docs/performance.md#memory): the launcher,
 * bin/scanctl.js, gives them to serve and exec by a second start; the single executable carries them
 * in its execArgv (bin/build-exe.mjs). SCANCTL_NODE_FLAGS replaces them (empty: none).
 */
export const DEFAULT_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=1024'] as const;

export type GlobalOptionName = (typeof GLOBAL_OPTIONS)[number]['name'];

/**
 * The command a command line names: its first word that is neither an option nor a global option's
 * value (`--app app_demo serve` is serve); null when there is none before `--`. The launcher,
 * bin/scanctl.js, uses this same function (built to dist/bundle/global-options.cjs) to give serve and
 * exec their heap flags before the CLI loads.
 */
export function commandName(args: readonly string[]): string | null {
  const takesValue = new Set<string>(GLOBAL_OPTIONS.filter((option) => option.takesValue).map((option) => option.name));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return null;
    if (!arg.startsWith('-')) return arg;
    if (takesValue.has(arg)) i++;
  }
  return null;
}
