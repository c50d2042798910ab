// Runs before `npm run build` and `npm test` (npm's pre-scripts), so that the README's two commands do all the set-up
// on a fresh clone: it installs the locked dependencies when node_modules is missing or older than package-lock.json.
// (A missing browser is reported by the end-to-end tests themselves, with what to install.) Plain JavaScript on
// purpose: it runs before any dependency exists.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import process from 'node:process';

const installed = 'node_modules/.package-lock.json';
const stale = !existsSync(installed) || statSync('package-lock.json').mtimeMs > statSync(installed).mtimeMs;
if (stale) {
  process.stderr.write('setup: installing dependencies (npm ci)\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stderr.write('setup: `npm ci` failed; fix the error above and run the command again\n');
    process.exit(result.status ?? 1);
  }
}
