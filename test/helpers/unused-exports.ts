import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The exports of src/ that nothing imports: not src/ itself, the tests, the benchmarks, the
 * examples or the scripts of bin/. A scan of import and export statements (static, `import()`
 * with its destructured names, `typeof import()`), parsed with the TypeScript compiler, no type
 * checking. An entry point's exports (the package's, the bundles') count as used, and so does a
 * type its own module names elsewhere (a parameter's or a result's type: part of the signatures).
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const ENTRIES = ['src/index.ts', 'src/verify.ts', 'src/cli/main.ts', 'src/tui/render.tsx'];
const SCANNED = ['src', 'test', 'bench', 'examples', 'bin'];

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(tsx?|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The src/ file a specifier names, or null (a package, a file outside src/). dist/x.js stands for src/x.ts. */
function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(dirname(from), specifier).replace(`${ROOT}/dist/`, `${ROOT}/src/`);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), `${target}.ts`, join(target, 'index.ts')]) {
    if (candidate.startsWith(`${ROOT}/src/`) && existsSync(candidate)) return candidate;
  }
  return null;
}

const ALL = '*';

export function unusedExports(): string[] {
  const exported = new Map<string, Set<string>>();
  const used = new Map<string, Set<string>>();
  const use = (file: string | null, name: string) => {
    if (!file) return;
    if (!used.has(file)) used.set(file, new Set());
    used.get(file)!.add(name);
  };
  const typeOnly = new Set<string>();
  const declare = (file: string, name: string, isType = false) => {
    if (!exported.has(file)) exported.set(file, new Set());
    exported.get(file)!.add(name);
    if (isType) typeOnly.add(`${file}:${name}`);
  };

  for (const file of SCANNED.flatMap((dir) => files(join(ROOT, dir)))) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const inSrc = file.startsWith(`${ROOT}/src/`);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveSpecifier(file, node.moduleSpecifier.text);
        const clause = node.importClause;
        if (clause?.name) use(target, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) use(target, ALL);
        if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) use(target, (e.propertyName ?? e.name).text);
        if (!clause) use(target, ALL);
      } else if (ts.isExportDeclaration(node)) {
        const target =
          node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? resolveSpecifier(file, node.moduleSpecifier.text) : null;
        if (node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const e of node.exportClause.elements) {
            if (target) use(target, (e.propertyName ?? e.name).text);
            if (inSrc) declare(file, e.name.text);
          }
        } else if (target) use(target, ALL);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        const target = arg && ts.isStringLiteral(arg) ? resolveSpecifier(file, arg.text) : null;
        const binding = ts.isAwaitExpression(node.parent) && ts.isVariableDeclaration(node.parent.parent) ? node.parent.parent.name : null;
        if (binding && ts.isObjectBindingPattern(binding)) {
          for (const e of binding.elements) use(target, ((e.propertyName as ts.Identifier | undefined) ?? (e.name as ts.Identifier)).text);
        } else use(target, ALL);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        const target = resolveSpecifier(file, node.argument.literal.text);
        use(target, node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText()) : ALL);
      } else if (inSrc && node.parent === source && hasExportModifier(node)) {
        for (const name of declaredNames(node)) declare(file, name, ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const entries = new Set(ENTRIES.map((entry) => join(ROOT, entry)));
  const unused: string[] = [];
  for (const [file, names] of exported) {
    if (entries.has(file)) continue;
    const seen = used.get(file);
    if (seen?.has(ALL)) continue;
    const text = readFileSync(file, 'utf8');
    for (const name of names) {
      if (seen?.has(name)) continue;
      // A type named in its own module's other declarations is part of that module's signatures: exported so callers can name it.
      if (typeOnly.has(`${file}:${name}`) && (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1) continue;
      unused.push(`${relative(join(ROOT, 'src'), file)}: ${name}`);
    }
  }
  return unused.sort();
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function declaredNames(node: ts.Node): string[] {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  if (
    (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
  )
    return ['default'];
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node)
  ) {
    return node.name ? [node.name.text] : [];
  }
  return [];
}
