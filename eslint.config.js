// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

import { boundaries } from './eslint.boundaries.js';
import { cycles } from './eslint.cycles.js';

export default tseslint.config(
  // scripts/demo/site/ is the demo shop's own page script: plain browser JavaScript served as is, not product code.
  { ignores: ['dist/**', 'dist-host/**', 'node_modules/**', 'test-artifacts/**', 'runs/**', 'coverage/**', 'scripts/demo/site/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', 'eslint.boundaries.js', 'eslint.cycles.js', 'scripts/*.mjs', 'tests/fixtures/host-start/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
      // `keyof M & string` over a concrete method map is flagged although it narrows generic code correctly.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  ...boundaries,
  ...cycles,
);
