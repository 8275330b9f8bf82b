// ESLint: @eslint/js's recommended rules and typescript-eslint's recommended type-checked set over the TypeScript
// (type information from tsconfig.json), the plain recommended rules over the build and bench scripts. Layout is
// Prettier's (.prettierrc.json); nothing here is about it. A rule turned off says why: these are the project's
// choices, not findings waiting to be fixed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      'reports/',
      'src/generated/',
      'test/.readme-run-*/',
      // npm run mutation's sandbox, a copy of the project while Stryker runs (its files start with @ts-nocheck).
      '.stryker-tmp/',
      'test/.compile-web-*/',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async function that implements an asynchronous interface (the memory PetStore beside the Redis one, a
      // body stream read as an async iterable) is async so that a throw is a rejection, as in the interface's other
      // implementations; an await it does not need would only be there to please the rule.
      '@typescript-eslint/require-await': 'off',
      // The project looks for control characters on purpose: escaping what a target sent before printing it, refusing
      // U+0000 in a name, checking that a generator never produces them.
      'no-control-regex': 'off',
      // Passing on what was caught (a catch's `unknown`, an abort signal's reason) unchanged is what a rethrow is
      // for; a literal that is not an Error is still refused.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // A parameter a signature needs but the body does not use is named with a leading _ (Express tells an error
      // handler by its four parameters).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read what a server answered (`await response.json()`, a parsed report) as `any` and hold it with
    // `expect(...)`: the assertion is the type check. Typing each answer first would repeat the schema the
    // assertion already states.
    files: ['test/**/*.ts', '**/*.test.ts', 'contract-tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
