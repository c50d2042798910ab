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

/** What every extension file may not import (repeated in each background block below: a later block's rule replaces it). */
const extensionImports = [
  { group: ['**/native-host/**', '**/native-host'], message: 'The extension never imports the native host: talk to it over native messaging.' },
  nodeImports,
];

/**
 * The floors of extension/background/ (see each folder's README.md): which sibling folders a folder may import. The
 * lists are the folders each may NOT import; index.ts (the entry, which only wires) may import anything. Every folder
 * may import `ui/ui-server` (the ui channel and its handler types) where ui/ is not listed as a whole; none may import
 * `ui/ui-handlers`, which composes them all.
 */
export const backgroundFloors = {
  stores: ['tasks', 'page', 'input', 'egress', 'chat', 'mcp', 'host', 'frames', 'ui', 'routines'],
  frames: ['tasks', 'page', 'input', 'egress', 'chat', 'mcp', 'host', 'stores', 'ui', 'routines'],
  egress: ['tasks', 'page', 'chat', 'mcp', 'host', 'stores', 'frames', 'ui', 'routines'],
  input: ['tasks', 'page', 'egress', 'chat', 'mcp', 'host', 'stores', 'ui', 'routines'],
  page: ['tasks', 'chat', 'mcp', 'host', 'stores', 'ui', 'routines'],
  chat: ['tasks', 'mcp', 'host', 'stores', 'ui', 'routines'],
  host: ['tasks', 'page', 'input', 'egress', 'chat', 'mcp', 'frames', 'routines'],
  mcp: ['tasks', 'chat', 'routines'],
  routines: ['tasks', 'chat', 'mcp', 'host'],
  tasks: ['mcp', 'host'],
  ui: [],
};

/** @param {string} folder @param {string[]} banned @returns {import('eslint').Linter.Config} */
function backgroundFloor(folder, banned) {
  const names = banned.join('|');
  const patterns = [
    ...extensionImports,
    { regex: '^(\\.\\./)+index$', message: 'The background entry only wires: nothing imports it.' },
    { regex: '^\\.\\./ui/ui-handlers$', message: 'ui/ui-handlers composes every feature: a feature never imports it (ui/ui-server has the types).' },
  ];
  if (names) {
    patterns.push({
      regex: `^\\.\\./(${names})(/|$)`,
      message: `extension/background/${folder}/ may not import ${banned.map((name) => `${name}/`).join(', ')} (the floors are in eslint.boundaries.js): pass what it needs in through its deps, or move the shared part down a floor.`,
    });
  }
  return { files: [`extension/background/${folder}/**`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

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
            ...extensionImports,
            { group: ['**/background/**', '**/background'], message: 'Only the background imports the background: talk to it over a channel.' },
          ],
        },
      ],
    },
  },
  {
    files: ['extension/background/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: extensionImports }] },
  },
  ...Object.entries(backgroundFloors).map(([folder, banned]) => backgroundFloor(folder, banned)),
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
    // loop-redact.ts is a CLI of its own: the fixer's PostToolUse hook answers on stdout, and its shell writes there.
    files: ['native-host/host/**', 'native-host/cli/**', 'native-host/loop-redact.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
];
