import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBridgeServer, type BridgeBackend, type RunningBridge } from '../../../../native-host/mcp/bridge-server';
import { canConnect } from '../../../../native-host/desktop/socket-connect';
import type { Logger } from '../../../../native-host/log/logger';

const backend: BridgeBackend = {
  hostVersion: '0.0.0',
  open: () => {
    throw new Error('no session in this test');
  },
};

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const log: Logger & { warnings: string[] } = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message: string) => void warnings.push(message),
    error: () => undefined,
    child: () => log,
    warnings,
  };
  return log;
}

const dirs: string[] = [];
const running: RunningBridge[] = [];
afterEach(async () => {
  for (const bridge of running.splice(0)) await bridge.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function paths(): { dir: string; socket: string; tokenFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dbr-'));
  dirs.push(dir);
  return { dir: join(dir, 'run'), socket: join(dir, 'run', 'bridge.sock'), tokenFile: join(dir, 'run', 'token') };
}

describe.skipIf(process.platform === 'win32')('two hosts racing for the bridge socket', () => {
  it.each([2, 3, 5])('of %i hosts started at once, exactly one listens; the others say why and leave it to that one', async (count) => {
    const where = paths();
    const logs = Array.from({ length: count }, () => recordingLog());
    const bridges = await Promise.all(logs.map((log) => startBridgeServer({ paths: where, backend, log })));
    running.push(...bridges);
    const listening = bridges.filter((bridge) => bridge.socket !== undefined);
    expect(listening).toHaveLength(1);
    expect(await canConnect({ path: where.socket }, 2000)).toBe(true);
    const deferred = logs.filter((log) => log.warnings.length > 0);
    expect(deferred).toHaveLength(count - 1);
    for (const log of deferred) expect(log.warnings[0]).toMatch(/another Deputy host .* serves the bridge socket already.*close the other one, then reload Deputy/);
  });

  it('takes over a stale socket file left by a host that crashed', async () => {
    const where = paths();
    // A socket file with nobody behind it: a process that listened on it and was killed, as a crashed host is.
    mkdirSync(where.dir, { recursive: true, mode: 0o700 });
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(where.socket)}, () => process.stdout.write('up'))`]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(where.socket)).toBe(true);
    expect(await canConnect({ path: where.socket }, 500)).toBe(false);
    const log = recordingLog();
    const bridge = await startBridgeServer({ paths: where, backend, log });
    running.push(bridge);
    expect(bridge.socket).toBe(where.socket);
    expect(log.warnings).toEqual([]);
    expect(await canConnect({ path: where.socket }, 2000)).toBe(true);
  });
});

// libuv removes the path a Unix socket server listened on when the server closes, whatever file that path holds by then.
// A host that stops must not take a newer host's socket file with it: deputy mcp could then reach no browser at all,
// while the newer host still believes it serves the bridge.
async function start(where: ReturnType<typeof paths>): Promise<RunningBridge> {
  const bridge = await startBridgeServer({ paths: where, backend, log: recordingLog() });
  running.push(bridge);
  return bridge;
}

describe.skipIf(process.platform === 'win32')('a host that stops beside a newer one', () => {
  it("leaves the newer host's socket file in place when its own was removed and taken meanwhile", async () => {
    const where = paths();
    const older = await start(where);
    expect(older.socket).toBe(where.socket);
    // The file goes (a user, or a cleaner of the run folder); a host started now listens on the free name.
    unlinkSync(where.socket);
    const newer = await start(where);
    expect(newer.socket).toBe(where.socket);
    await older.close();
    expect(existsSync(where.socket)).toBe(true);
    expect(await canConnect({ path: where.socket }, 2000)).toBe(true);
    await newer.close();
    expect(existsSync(where.socket)).toBe(false);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'stopping while another starts (round %i): a host that says it serves the bridge is reachable',
    async () => {
      const where = paths();
      const older = await start(where);
      const [, newer] = await Promise.all([older.close(), start(where)]);
      if (newer.socket === undefined) {
        // It found the older host still answering and left the bridge to it, which then stopped: nothing is left behind.
        expect(existsSync(where.socket)).toBe(false);
      } else {
        expect(await canConnect({ path: where.socket }, 2000)).toBe(true);
      }
    },
  );

  it('leaves no file but the socket and the token in the run folder, and only the token once stopped', async () => {
    const where = paths();
    const bridge = await start(where);
    const deferred = await start(where);
    expect(deferred.socket).toBeUndefined();
    expect(readdirSync(where.dir).sort()).toEqual(['bridge.sock', 'token']);
    await deferred.close();
    await bridge.close();
    expect(readdirSync(where.dir)).toEqual(['token']);
  });
});
