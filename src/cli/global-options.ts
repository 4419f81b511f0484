/**
 * The options every command takes, declared once: `buildProgram` registers them, and anything that
 * reads a command line before commander does (the launcher, bin/scanctl.js, choosing its code cache;
 * the program, registering only the command named) skips their values with `commandWord`.
 * No imports: the launcher may load this module alone.
 */
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

export type GlobalOptionName = (typeof GLOBAL_OPTIONS)[number]['name'];

/** Global options whose value is the next word (`--app ID`): that word is not a command's name. */
const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(
  GLOBAL_OPTIONS.filter((option) => option.takesValue).map((option) => option.name),
);

/** The first word of a command line that is not an option or a global option's value: the command or group it names. */
export function commandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
