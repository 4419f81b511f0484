import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles, SRC } from '../../helpers/source-files.js';

/**
 * No module-level mutable state in src/: what an emulator, an engine, a sender or a program holds is
 * a field of that object, made with it and gone with it. A module-level `let` or `var`, a `new Map`,
 * `WeakMap`, `Set` or `WeakSet`, an array literal, or a class's static field that can be written is
 * allowed only when listed here with why it may live as long as the process: a documented cache
 * (the same answer for the life of the process, or bounded and rebuilt on demand), or a constant in
 * a folder this rule has not been carried into yet. A constant collection says so in its type
 * (`ReadonlySet`, `ReadonlyMap`, `readonly T[]`, `as const`) and needs no entry.
 */
const ALLOWED: Record<string, string> = {
  // Caches: the same answer for the life of the process, or bounded and remade on a miss.
  'util/executable.ts unpacked': "cache: the single executable's runtime folder, the same folder for the life of the process",
  'util/package-root.ts root': 'cache: the package root, found once by walking up from the module (or the runtime folder)',
  'store/sqlite.ts executableAddon': "cache: the executable's better-sqlite3 addon, loaded by process.dlopen once per process",
  'webhooks/send-pools.ts undiciModule': 'cache: undici, loaded at the first send and never on a command that sends nothing',
  'emulator/http/fallbacks.ts routeRegexes': 'cache: the compiled regular expression of each route pattern (bounded by the routes)',
  'emulator/http/sse.ts serialized': 'cache: the encoded bytes of one stream event, weakly keyed by the event object its subscribers share',
  'emulator/routes/openapi.ts documents': 'cache: the generated OpenAPI text per origin, at most 8 then cleared',
  'emulator/domain/device.ts modelCache': 'cache: the deterministic model bytes of each known model version (bounded by MODEL_VERSIONS)',
  'emulator/fixture-file.ts lastRead': 'cache: the last fixture file parsed, reused only while its text is the same (handed out as a copy)',
  'emulator/state/checkpoint-store.ts restoreCaches':
    "cache: a connection's prepared restore statements and table list, weakly keyed by the connection",
  'emulator/state/change-log.ts bases':
    "per connection, weakly keyed by it: which checkpoint the connection's temp change triggers count from (they live in the connection too)",
  'testkit/simulate-scan.ts defaultResult': 'cache: the bundled fixtures/results/default.json, read and checked once',
  'cli/commands/serve.ts fixtureKeys':
    'cache: a module imported once, at the first use (src/cli/commands/ is outside the change that made this rule)',
  'cli/commands/serve.ts signingSecretOf':
    'cache: a module imported once, at the first use (src/cli/commands/ is outside the change that made this rule)',
};

const COLLECTION = /^(Weak)?(Map|Set)$/;
const READONLY_TYPE = /^(readonly |Readonly(Array|Map|Set)<)/;

/** The expression under `as`, `satisfies` and parentheses, and whether an `as const` was among them. */
function unwrap(node: ts.Expression | undefined): { expression: ts.Expression | undefined; asConst: boolean } {
  let expression = node;
  let asConst = false;
  while (
    expression &&
    (ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isParenthesizedExpression(expression))
  ) {
    if (ts.isAsExpression(expression) && expression.type.getText() === 'const') asConst = true;
    expression = expression.expression;
  }
  return { expression, asConst };
}

/** What makes a value writable from anywhere in the process, or null. */
function mutableValue(initializer: ts.Expression | undefined, type: ts.TypeNode | undefined): string | null {
  const { expression, asConst } = unwrap(initializer);
  if (!expression || asConst || (type && READONLY_TYPE.test(type.getText()))) return null;
  if (ts.isNewExpression(expression) && COLLECTION.test(expression.expression.getText())) return `new ${expression.expression.getText()}`;
  if (ts.isNewExpression(expression) && expression.expression.getText() === 'Array') return 'new Array';
  if (ts.isArrayLiteralExpression(expression)) return 'an array';
  return null;
}

/** Each module-level holder of mutable state in a file: `<file> <name>` and what it is. */
function holders(path: string): Array<{ key: string; what: string }> {
  return holdersIn(relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8'));
}

function holdersIn(file: string, text: string): Array<{ key: string; what: string }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ key: string; what: string }> = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const kind = flags & ts.NodeFlags.Const ? 'const' : flags & ts.NodeFlags.Let ? 'let' : 'var';
      for (const declaration of statement.declarationList.declarations) {
        const what = kind === 'const' ? mutableValue(declaration.initializer, declaration.type) : kind;
        if (what) found.push({ key: `${file} ${declaration.name.getText()}`, what });
      }
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member) || !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
        const readonly = member.modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
        const what = readonly ? mutableValue(member.initializer, member.type) : 'a static field';
        if (what) found.push({ key: `${file} ${statement.name?.getText() ?? 'class'}.${member.name.getText()}`, what });
      }
    }
  }
  return found;
}

describe('module-level mutable state in src/', () => {
  const found = sourceFiles().flatMap(holders);

  it('each holder is a documented cache (or a constant not yet typed as one) listed with its reason; the rest belongs to an object', () => {
    expect(found.filter(({ key }) => !(key in ALLOWED)).map(({ key, what }) => `${key}: ${what}`)).toEqual([]);
  });

  it('the list names only holders that exist, each with its reason (one that went is taken off)', () => {
    const keys = new Set(found.map(({ key }) => key));
    expect(Object.keys(ALLOWED).filter((key) => !keys.has(key))).toEqual([]);
    for (const [key, reason] of Object.entries(ALLOWED)) expect(reason.length, key).toBeGreaterThan(30);
  });

  it('the scan finds what it looks for (a let, a Map, an array, a static field; not a ReadonlySet or an as-const array)', () => {
    const sample = [
      'let a = 1;',
      'const b = new Map();',
      'const c = [1];',
      'const d: ReadonlySet<string> = new Set();',
      'const e = [1] as const;',
      'const f: readonly number[] = [1];',
      'export const g = new WeakMap<object, string>();',
      'class H { static i = 1; static readonly j = 2; static readonly k = new Set(); }',
    ].join('\n');
    expect(holdersIn('sample.ts', sample).map(({ key }) => key)).toEqual([
      'sample.ts a',
      'sample.ts b',
      'sample.ts c',
      'sample.ts g',
      'sample.ts H.i',
      'sample.ts H.k',
    ]);
  });
});
