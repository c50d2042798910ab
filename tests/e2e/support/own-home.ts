import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A setup file of the e2e config (vitest.e2e.config.ts): every test file runs with a home and a temp folder of its own,
 * which the browser, the host and every command it starts inherit, so two files can run at once. What a host keeps
 * under the user's home would otherwise be one for both: the MCP bridge socket and its token
 * (~/.local/share/deputy/run), the settings, mcp.json, routines and their schedules, run folders and the log. So
 * would names made from `os.tmpdir()` (a fixture's fixed file name, Chromium's own temp files). Both are removed after
 * the file, with whatever a test left in them.
 *
 * The environment is otherwise the one CI gives (root, no XDG variables): XDG_* and DEPUTY_RUN_DIR are unset, so
 * everything follows HOME, as it does there and on a machine where they are not set. A test that sets HOME, an XDG
 * folder or DEPUTY_RUN_DIR for its own children still does; those land in this file's folders too.
 */
const root = mkdtempSync(join(tmpdir(), 'dpe-'));
const home = join(root, 'home');
const temp = join(root, 'tmp');
mkdirSync(home, { mode: 0o700 });
mkdirSync(temp);
// The temp folder is what /tmp is to other users: servers a test starts as root drop to users of their own (Dovecot's
// mail and login processes run as nobody and dovenull) and must reach their folders under it.
chmodSync(root, 0o755);
chmodSync(temp, 0o1777);

for (const name of [
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  'DEPUTY_RUN_DIR',
  'CHROME_CONFIG_HOME',
])
  delete process.env[name];
process.env.HOME = home;
// os.tmpdir() reads TMPDIR on every call (TMP and TEMP only when it is unset).
process.env.TMPDIR = temp;

afterAll(() => {
  // Registered first, so it runs after the file's own afterAll hooks (vitest runs them last-first): the browsers and
  // hosts are closed by then. A child that outlives them may still write here for a moment, hence the retries.
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});
