// @ts-check
/**
 * The architecture's import and global boundaries (see DESIGN.md), as ESLint flat-config blocks. Kept apart from
 * eslint.config.js so tests/unit/lint-boundaries.test.ts can check that each boundary really rejects a violation.
 */
/** Browser and Node globals that shared/ must not use: it runs in both, so it may use neither. */
const runtimeGlobals = [
  'chrome', 'browser', 'window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'self',
  'process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate',
].map((name) => ({ name, message: 'shared/ runs in the browser and in Node: take this through a parameter.' }));

const nodeBuiltins = ['fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'url', 'util', 'stream', 'events', 'buffer', 'process', 'worker_threads', 'zlib', 'readline', 'tty'];
const nodeImports = { group: ['node:*', ...nodeBuiltins], message: 'Node built-ins belong in native-host/ or scripts/.' };

/** @type {import('eslint').Linter.Config[]} */
export const boundaries = [
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
];
