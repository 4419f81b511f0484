// @ts-check
// Type-checked lint of everything the project runs (`npm run lint`, part of `npm test`).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * No error is told apart by its message text: by its class, or by its code (SQLITE_FULL, SQLITE_IOERR_*, ENOSPC,
 * MODULE_NOT_FOUND; errorCode in src/util/caught.ts). A message is quoted to a person, never read. Where an error has
 * no code, an inline disable says so.
 */
const READS = 'includes|startsWith|endsWith|match|matchAll|indexOf|search';
const NO_MESSAGE_TEXT = [
  // error.message.includes('...'), String(error.message).startsWith('...'), errorMessage(error).match(/.../)
  `CallExpression[callee.property.name=/^(${READS})$/][callee.object.property.name='message']`,
  `CallExpression[callee.property.name=/^(${READS})$/][callee.object.callee.name='String'][callee.object.arguments.0.property.name='message']`,
  `CallExpression[callee.property.name=/^(${READS})$/][callee.object.callee.name='errorMessage']`,
  // /.../.test(error.message), /.../.exec(errorMessage(error))
  `CallExpression[callee.property.name=/^(test|exec)$/][arguments.0.property.name='message']`,
  `CallExpression[callee.property.name=/^(test|exec)$/][arguments.0.callee.name='errorMessage']`,
  // error.message === '...' (a comparison with undefined or null asks whether there is one)
  `BinaryExpression[operator=/^[!=]==?$/][left.property.name='message'][right.value=type(string)]`,
  `BinaryExpression[operator=/^[!=]==?$/][right.property.name='message'][left.value=type(string)]`,
].map((selector) => ({
  selector,
  message: "Tell an error by its class or its code (errorCode, src/util/caught.ts), not its message's text.",
}));

export default defineConfig(
  // examples/express is a project of its own, with its own dependencies and tsconfig (Express is not
  // scanctl's): test/e2e/express-example.test.ts type-checks it strictly in a copy with them installed.
  { ignores: ['dist/', 'dist-check/', 'coverage/', '**/*.d.ts', 'examples/**/*.js', '.github/workflows/', 'examples/express/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'vitest.config.ts', '.dependency-cruiser.cjs', 'layers.config.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The project's plain JavaScript (the launcher, the build scripts, the benchmarks, the action's steps,
    // the image test): linted without types, which they do not declare.
    files: ['bin/**/*.{js,mjs}', 'bench/**/*.{js,cjs}', '.github/action/*.mjs', 'test/image/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        AbortSignal: 'readonly',
        __dirname: 'readonly',
        __filename: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-restricted-syntax': ['error', ...NO_MESSAGE_TEXT] },
  },
  {
    files: ['*.cjs', 'bench/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**'],
    ignores: ['src/cli/**'],
    rules: {
      // Engines never print: a host gives them a Logger (docs/architecture.md, "Logging").
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'Engines never print: take a Logger from the host.' },
        { object: 'process', property: 'stderr', message: 'Engines never print: take a Logger from the host.' },
        { object: 'process', property: 'emitWarning', message: 'Engines never print: take a Logger from the host.' },
      ],
    },
  },
  {
    files: ['src/**'],
    rules: {
      // Small files: split a module by what its parts hold.
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      // No cast of data a type cannot vouch for: narrow it, or parse it with the contract's schema.
      '@typescript-eslint/no-unsafe-type-assertion': 'error',
      // One parse-and-validate helper: text becomes a value through a schema, never a bare JSON.parse.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='JSON'][callee.property.name='parse']",
          message: 'Parse and validate with parseJson (contract/parse-json.ts) and the schema of what the text holds.',
        },
        ...NO_MESSAGE_TEXT,
      ],
      // The option parsers live in cli/parse-options.ts (those that take the contract's rules in
      // cli/parse-contract-options.ts; and cli/http-url.ts, which the program's own --base-url needs
      // before a command and the schemas load): no command throws commander's InvalidArgumentError itself.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'commander', importNames: ['InvalidArgumentError'], message: 'Add a parser to cli/parse-options.ts.' }],
        },
      ],
    },
  },
  {
    files: ['src/cli/parse-options.ts', 'src/cli/parse-contract-options.ts', 'src/cli/http-url.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // JSON.parse where no schema applies: the helper itself; the package's own package.json and the executable's
    // manifest, checked field by field; one JSON string literal of text already validated, decoded.
    files: ['src/contract/parse-json.ts', 'src/util/package-root.ts', 'src/util/executable.ts', 'src/util/raw-json.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_MESSAGE_TEXT] },
  },
  {
    // Hosts that print by request: startEmulator({ quiet: false }) logs requests to stderr; the TUI draws on the terminal;
    // the executable's main script answers --version before the CLI loads, as bin/scanctl.js does, and says when
    // V8 rejected its code cache (the build's check).
    files: ['src/testkit/start-emulator.ts', 'src/tui/render.tsx', 'src/exe/main.ts', 'src/exe/loader.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read answers as `any` (`await res.json()`) and assert on them; the schemas are tested elsewhere.
    files: ['test/**', 'examples/**', '*.config.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests build deliberately wrong input with `{ ... } as never`; fakes implement async interfaces with plain values,
      // and spies are read off their objects.
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'allow' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
