import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ioOf, processIo, type CliIo } from '../../../src/cli/io.js';
import { envOfOption } from '../../../src/cli/option-env.js';
import { buildProgram } from '../../../src/cli/program.js';

function bufferIo(): CliIo {
  return { ...processIo(), stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
}

/** Every command under `command`, itself included. */
const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];

describe('the io a command runs with is a field of its program', () => {
  it('two programs built side by side hand each of their commands their own io', async () => {
    const [ioA, ioB] = [bufferIo(), bufferIo()];
    const [a, b] = await Promise.all([buildProgram('test', ioA), buildProgram('test', ioB)]);
    const commandsOfA = everyCommand(a);
    expect(commandsOfA.length).toBeGreaterThan(20);
    expect(commandsOfA.every((command) => ioOf(command) === ioA)).toBe(true);
    expect(everyCommand(b).every((command) => ioOf(command) === ioB)).toBe(true);
  });

  it("a command of no program runs with the process's io", () => {
    const io = ioOf(new Command('alone').command('verb'));
    expect(io.stdout).toBe(process.stdout);
  });

  it('the global options whose variable the CLI reads itself still name it (the reference shows it)', async () => {
    const program = await buildProgram('test', bufferIo());
    const envs = program.options.map((option) => envOfOption(option)).filter(Boolean);
    expect(envs).toContain('SCANCTL_BASE_URL');
  });
});
