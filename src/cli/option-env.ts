import type { Option } from 'commander';

/**
 * The environment variables the CLI reads itself rather than through commander's Option.env()
 * (which would also take a blank value, and reads process.env instead of the command's io): named
 * here so that the reference's Env column shows them.
 */
const readByCli = new WeakMap<Option, string>();

export function envReadByCli(option: Option, name: string): Option {
  readByCli.set(option, name);
  return option;
}

/** The environment variable an option takes its value from, however it is read. */
export const envOfOption = (option: Option): string | undefined => option.envVar ?? readByCli.get(option);
