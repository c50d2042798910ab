import { mkdtempSync, rmSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../../native-host/log/logger';
import type { BridgeBackend } from '../../../../native-host/mcp/bridge-server';

// Between the bridge's listen and its chmod, the socket file can be taken away (seen when hosts started together on one
// machine all listened on the public name: chmod failed with ENOENT, and the server left open on the vanished file kept
// the host alive after it stopped, which then ended by its forced exit). Each host now listens on a private name first;
// a user or a cleaner of the run folder can still remove that one. Here chmod of the socket fails once.
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof fsPromises>();
  let failed = false;
  return {
    ...real,
    chmod: async (...args: Parameters<typeof real.chmod>) => {
      if (!failed && String(args[0]).endsWith('.sock')) {
        failed = true;
        throw Object.assign(new Error(`ENOENT: no such file or directory, chmod '${String(args[0])}'`), { code: 'ENOENT' });
      }
      return real.chmod(...args);
    },
  };
});

const log: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => log };
const dir = mkdtempSync(join(tmpdir(), 'dbg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('the bridge socket file gone right after the listen', () => {
  it('fails with a reason that says what to do, and leaves no server open to keep the host alive', async () => {
    const { startBridgeServer } = await import('../../../../native-host/mcp/bridge-server');
    // The servers this process still listens with (Node's own list of the handles that keep a process alive).
    const servers = (): number => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((handle) => handle instanceof Server && handle.listening).length;
    const before = servers();
    const paths = { dir: join(dir, 'run'), socket: join(dir, 'run', 'bridge.sock'), tokenFile: join(dir, 'run', 'token') };
    const backend: BridgeBackend = {
      hostVersion: '0.0.0',
      open: () => {
        throw new Error('no session in this test');
      },
    };
    await expect(startBridgeServer({ paths, backend, log })).rejects.toThrow(/socket file went away at once .*Reload Deputy to try again/);
    expect(servers()).toBe(before);
    // The next start (the extension reloaded) listens as usual.
    const bridge = await startBridgeServer({ paths, backend, log });
    expect(bridge.socket).toBe(paths.socket);
    expect(servers()).toBe(before + 1);
    await bridge.close();
    expect(servers()).toBe(before);
  });
});
