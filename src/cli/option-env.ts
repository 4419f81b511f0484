import { Option } from 'commander';

/**
 * An option whose environment variable the CLI reads itself rather than through commander's
 * Option.env() (which would also take a blank value, and reads process.env instead of the command's
 * io): it names the variable, so that the reference's Env column shows it.
 */
export class EnvReadByCli extends Option {
  constructor(
    flags: string,
    description: string,
    readonly readByCli: string,
  ) {
    super(flags, description);
  }
}

/** The environment variable an option takes its value from, however it is read. */
export const envOfOption = (option: Option): string | undefined =>
  option.envVar ?? (option instanceof EnvReadByCli ? option.readByCli : undefined);
