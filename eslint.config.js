// @ts-check
// Type-checked lint of everything the project runs (`npm run lint`, part of `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-check/', 'coverage/', '**/*.d.ts', 'test/image/', 'bin/', 'bench/', 'examples/**/*.js', '.github/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-deprecated': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**'],
    ignores: ['src/cli/**'],
    rules: {
      // Engines never print: a host gives them a Logger (ARCHITECTURE.md, "Logging").
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
    },
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
    },
  },
);
