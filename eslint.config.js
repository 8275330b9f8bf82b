// ESLint: @eslint/js's recommended rules and typescript-eslint's recommended type-checked set over the TypeScript
// (type information from tsconfig.json), the plain recommended rules over the build and bench scripts. Formatting is
// Prettier's (.prettierrc.json); nothing here is about layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'reports/', 'src/generated/', 'test/.readme-run-*/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
