import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import type { Argument, Command, Option } from 'commander';
import { JSON_OUTPUTS, jsonFieldTable } from './json-fields.js';
import { envOfOption } from './option-env.js';

/**
 * The command reference in docs/cli/, rendered from the commander program itself so that it
 * cannot drift from `--help`: one page per top-level command (a group with its subcommands, or a
 * single command), and an index. Pure: the same program gives the same bytes.
 * bin/gen-cli-docs.mjs writes the pages; test/unit/cli/reference-docs.test.ts fails when they are stale.
 */
export interface ReferencePage {
  /** File name inside docs/cli/, e.g. `webhook.md`. */
  file: string;
  content: string;
}

const GENERATED = '<!-- Generated from the commander program by `npm run docs:cli`; do not edit by hand. -->';

export function renderCliReference(program: Command): ReferencePage[] {
  const help = program.createHelp();
  const groups = help.visibleCommands(program).filter((c) => c.name() !== 'help');
  const pages = groups.map((group) => ({ file: `${group.name()}.md`, content: renderGroupPage(program, group) }));
  return [{ file: 'README.md', content: renderIndex(program, groups) }, ...pages];
}

function renderIndex(program: Command, groups: Command[]): string {
  const rows = groups.flatMap((group) =>
    leafCommands(group).map(
      (command) => `| [\`${qualifiedName(command)}\`](${group.name()}.md#${anchor(command)}) | ${cell(summary(command))} |`,
    ),
  );
  return [
    GENERATED,
    '',
    '# Command reference',
    '',
    cell(program.description()),
    '',
    `Usage: \`${program.name()} [global options] <command> [options]\`. Every page below lists a command's`,
    'arguments, its options with their defaults and environment variables, and the global options it',
    'takes. `scanctl <command> --help` prints the same.',
    '',
    '| Command | What it does |',
    '|---|---|',
    ...rows,
    '',
    '## Global options',
    '',
    optionTable(globalOptions(program)),
    '',
  ].join('\n');
}

function renderGroupPage(program: Command, group: Command): string {
  const leaves = leafCommands(group);
  const single = leaves.length === 1 && leaves[0] === group;
  const lines = [GENERATED, '', `# \`${qualifiedName(group)}\``, ''];
  const groupAliases = group.aliases();
  if (!single) {
    lines.push(cell(group.description()), '');
    if (groupAliases.length > 0) lines.push(`Also available as ${groupAliases.map((a) => `\`${program.name()} ${a}\``).join(', ')}.`, '');
    lines.push('| Command | What it does |', '|---|---|');
    for (const command of leaves) lines.push(`| [\`${qualifiedName(command)}\`](#${anchor(command)}) | ${cell(summary(command))} |`);
    lines.push('');
  }
  for (const command of leaves) lines.push(...renderCommand(command));
  lines.push(
    '## Global options',
    '',
    `Every command above also takes these (see [the index](README.md)).`,
    '',
    optionTable(globalOptions(program)),
    '',
  );
  return lines.join('\n');
}

function renderCommand(command: Command): string[] {
  const help = command.createHelp();
  const lines = [`## ${qualifiedName(command)}`, '', '```', help.commandUsage(command), '```', ''];
  if (command.description()) lines.push(command.description(), '');
  const aliases = command.aliases();
  if (aliases.length > 0) lines.push(`Aliases: ${aliases.map((a) => `\`${a}\``).join(', ')}.`, '');
  // Not help.visibleArguments: it hides arguments unless one of them has a description.
  const args = command.registeredArguments;
  if (args.length > 0) lines.push('Arguments:', '', argumentTable(args), '');
  const options = help.visibleOptions(command).filter((o) => o.long !== '--help');
  if (options.length > 0) lines.push('Options:', '', optionTable(options), '');
  const json = JSON_OUTPUTS[qualifiedName(command)];
  if (json) lines.push('Output with `--json` (generated from the contract):', '', jsonFieldTable(json), '');
  const extra = helpText(command, 'beforeHelp') + helpText(command, 'afterHelp');
  if (extra.trim()) lines.push('```', extra.replace(/^\n+|\s+$/g, ''), '```', '');
  return lines;
}

/** The text a command adds to its `--help` with addHelpText('before' | 'after'). */
function helpText(command: Command, event: 'beforeHelp' | 'afterHelp'): string {
  let text = '';
  // A Command is an EventEmitter at run time; commander's typings leave that out.
  if (!(command instanceof EventEmitter)) return '';
  command.emit(event, { error: false, command, write: (chunk: string) => void (text += chunk) });
  return stripAnsi(text);
}

function argumentTable(args: readonly Argument[]): string {
  const rows = args.map((a) => {
    const notes = [a.required ? 'required' : 'optional'];
    if (a.argChoices) notes.push(`one of ${a.argChoices.map((c) => `\`${c}\``).join(', ')}`);
    if (a.defaultValue !== undefined) notes.push(`default ${code(a.defaultValueDescription ?? JSON.stringify(a.defaultValue))}`);
    const meaning = [cell(a.description), `(${notes.join('; ')})`].filter(Boolean).join(' ');
    return `| ${code(a.variadic ? `${a.name()}...` : a.name())} | ${meaning} |`;
  });
  return ['| Argument | Meaning |', '|---|---|', ...rows].join('\n');
}

function optionTable(options: readonly Option[]): string {
  if (options.length === 0) return '(none)';
  const rows = options.map((o) => {
    const notes = [];
    if (o.mandatory) notes.push('required');
    if (o.argChoices) notes.push(`one of ${o.argChoices.map((c) => `\`${c}\``).join(', ')}`);
    const meaning = [cell(o.description), notes.length > 0 ? `(${notes.join('; ')})` : ''].filter(Boolean).join(' ');
    const env = envOfOption(o);
    return `| ${code(o.flags)} | ${meaning} | ${defaultOf(o)} | ${env ? `\`${env}\`` : ''} |`;
  });
  return ['| Option | Meaning | Default | Env |', '|---|---|---|---|', ...rows].join('\n');
}

function defaultOf(option: Option): string {
  if (option.defaultValueDescription) return code(option.defaultValueDescription);
  if (option.defaultValue === undefined) return '';
  return code(typeof option.defaultValue === 'string' ? option.defaultValue : JSON.stringify(option.defaultValue));
}

/** Options every command inherits: the program's own, minus help and version. */
function globalOptions(program: Command): Option[] {
  return program.options.filter((o) => !o.hidden && o.long !== '--help' && o.long !== '--version');
}

/** A group's runnable commands, depth first; a command without subcommands is its own leaf. */
function leafCommands(command: Command): Command[] {
  const children = command
    .createHelp()
    .visibleCommands(command)
    .filter((c) => c.name() !== 'help');
  if (children.length === 0) return [command];
  return children.flatMap((child) => leafCommands(child));
}

function qualifiedName(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function summary(command: Command): string {
  return command.summary() || command.description();
}

/** GitHub's heading anchor for `## scanctl webhook listen`. */
function anchor(command: Command): string {
  return qualifiedName(command)
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

function stripAnsi(text: string): string {
  return stripVTControlCharacters(text);
}
