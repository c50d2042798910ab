import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * build:host moves a staged build into dist-host/ and keeps chunks a running host may still load (scripts/lib/
 * publish-build.ts). The chunk names are content hashes, so they must not depend on the staging folder: built twice
 * from the same sources, dist-host/chunks/ holds the same files, not twice as many.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const here = mkdtempSync(join(tmpdir(), 'deputy-build-host-'));
afterAll(() => rmSync(here, { recursive: true, force: true }));

function buildHost(): string[] {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/build-host.ts'], {
    cwd: ROOT,
    env: { ...process.env, DEPUTY_BUILD_HOST_ROOT: here },
    encoding: 'utf8',
  });
  expect(result.stderr).toContain('built');
  expect(result.status).toBe(0);
  return readdirSync(join(here, 'dist-host', 'chunks')).sort();
}

describe('build:host, run twice', () => {
  it('leaves the same chunks in dist-host/chunks and no staging folder', () => {
    const first = buildHost();
    const second = buildHost();
    expect(first.filter((name) => name.endsWith('.mjs')).length).toBeGreaterThan(10);
    expect(second).toEqual(first);
    expect(readdirSync(here).sort()).toEqual(['dist-host']);
    expect(readdirSync(join(here, 'dist-host'))).toEqual(expect.arrayContaining(['deputy.mjs', 'deputy.meta.json', 'loop-hook.mjs', 'loop-redact.mjs', 'run-task.mjs', 'chunks']));
  }, 240_000);
});
