// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Browser and Node globals that shared/ must not use: it runs in both, so it may use neither. */
const runtimeGlobals = [
  'chrome', 'browser', 'window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'self',
  'process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate',
].map((name) => ({ name, message: 'shared/ runs in the browser and in Node: take this through a parameter.' }));

const nodeImports = { group: ['node:*'], message: 'Node built-ins belong in native-host/ or scripts/.' };

export default tseslint.config(
  { ignores: ['dist/**', 'dist-host/**', 'node_modules/**', 'test-artifacts/**', 'runs/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
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
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-globals': ['error', ...runtimeGlobals],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/extension/**', '**/extension'], message: 'shared/ must not import the extension.' },
            { group: ['**/native-host/**', '**/native-host'], message: 'shared/ must not import the native host.' },
            nodeImports,
          ],
        },
      ],
    },
  },
  {
    files: ['extension/**'],
    ignores: ['extension/platform/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'chrome', message: 'Only extension/platform/ touches chrome.*: add a narrow function there.' },
        { name: 'browser', message: 'Only extension/platform/ touches browser.*.' },
      ],
    },
  },
  {
    files: ['extension/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/native-host/**', '**/native-host'], message: 'The extension never imports the native host: talk to it over native messaging.' },
            nodeImports,
          ],
        },
      ],
    },
  },
  {
    files: ['native-host/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/extension/**', '**/extension'], message: 'The native host never imports the extension.' }] },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'console', property: 'log', message: "stdout is the host's protocol: log through the logger (stderr)." },
        { object: 'console', property: 'info', message: "stdout is the host's protocol: log through the logger (stderr)." },
        { object: 'process', property: 'stdout', message: 'Only the framing layer and CLI output modules may write stdout.' },
      ],
    },
  },
  {
    files: ['native-host/host/**', 'native-host/cli/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
