import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/program.js';
import { processIo } from '../../../src/cli/io.js';
import { renderCliReference } from '../../../src/cli/reference-docs.js';

const DOCS = fileURLToPath(new URL('../../../docs/cli', import.meta.url));
const STALE = 'docs/cli is stale: run `npm run docs:cli` and commit the result';

async function render() {
  return renderCliReference(await buildProgram('0.0.0-test', processIo()));
}

function runnable(command: Command): Command[] {
  // `help` is not documented as a command of its own (the reference is the help).
  return command.commands.length === 0 ? [command] : command.commands.filter((c) => c.name() !== 'help').flatMap(runnable);
}

const pages = await render();

describe('docs/cli, the command reference generated from the program', () => {
  it('matches the program: every page is as npm run docs:cli would write it', () => {
    for (const page of pages) {
      let onDisk: string | null = null;
      try {
        onDisk = readFileSync(join(DOCS, page.file), 'utf8');
      } catch {
        // reported below
      }
      expect(onDisk, `${STALE} (docs/cli/${page.file})`).toBe(page.content);
    }
  });

  it('has no page for a command that no longer exists', () => {
    const extra = readdirSync(DOCS).filter((file) => file.endsWith('.md') && !pages.some((page) => page.file === file));
    expect(extra, STALE).toEqual([]);
  });

  it('documents every command, every option and every argument of the program', async () => {
    const all = pages.map((page) => page.content).join('\n');
    for (const command of runnable(await buildProgram('0.0.0-test', processIo()))) {
      const names: string[] = [];
      for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
      expect(all).toContain(`## ${names.join(' ')}\n`);
      for (const option of command.options) expect(all).toContain(`\`${option.flags.replace(/\|/g, '\\|')}\``);
      for (const argument of command.registeredArguments) expect(all).toContain(`\`${argument.name()}`);
    }
  });

  it('is deterministic and names no path of this machine', async () => {
    expect(await render()).toEqual(pages);
    const all = pages.map((page) => page.content).join('\n');
    expect(all).not.toMatch(/(?:^|[\s`'"(])\/(?:work|tmp|home|root|Users|var)\//m);
    expect(all).not.toContain(process.cwd());
  });

  it('the global options table fills its Default and Env columns (--base-url: SCANCTL_BASE_URL, read by the CLI itself)', () => {
    const clock = pages.find((page) => page.file === 'clock.md')!.content;
    const row = (flag: string) =>
      clock
        .split('\n')
        .find((line) => line.startsWith(`| \`${flag}`))!
        .split(' | ');
    expect(row('--base-url <url>').slice(2)).toEqual([
      '`the emulator in the nearest .scanctl/serve.json, else http://127.0.0.1:7226`',
      '`SCANCTL_BASE_URL` |',
    ]);
    expect(row('--app <id>')[2]).toBe("`the emulator's default app`");
    expect(row('--json')[2]).toBe('`off: human output`');
  });
});
