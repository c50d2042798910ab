import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_INSTALL_COMMAND, NATIVE_HOST_NAME, PROTOCOL_VERSION } from '../../../../../shared/constants';
import { splitIntoChunks, type HostStatus } from '../../../../../shared/protocol';
import type { NativePort } from '../../../../../extension/platform/native';
import { HostConnection, WAITING_FOR_HELLO, type HostConnectionDeps } from '../../../../../extension/background/host/host-connection';

type Request = { kind: 'request'; id: string; method: string; params: Record<string, unknown> };

/** A native port under the test's control: what the background posts, and what the "host" answers. */
class FakePort implements NativePort {
  readonly posted: Request[] = [];
  disconnected = false;
  private messageListener: (message: unknown) => void = () => undefined;
  private disconnectListener: (error: string | undefined) => void = () => undefined;

  post(message: unknown): void {
    if (this.disconnected) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(message as Request);
  }
  onMessage(listener: (message: unknown) => void): void {
    this.messageListener = listener;
  }
  onDisconnect(listener: (error: string | undefined) => void): void {
    this.disconnectListener = listener;
  }
  disconnect(): void {
    this.disconnected = true;
  }

  /** Chrome calls onDisconnect when the host exits or cannot be started; never after port.disconnect(). */
  drop(error: string | undefined): void {
    this.disconnected = true;
    this.disconnectListener(error);
  }
  send(message: unknown): void {
    this.messageListener(message);
  }
  answerHello(overrides: Record<string, unknown> = {}): void {
    const hello = this.posted.find((message) => message.method === 'hello');
    if (!hello) throw new Error('no hello was posted');
    this.send({
      kind: 'response',
      id: hello.id,
      ok: true,
      result: { hostVersion: '1.2.3', protocolVersion: PROTOCOL_VERSION, compatible: true, platform: 'linux', pid: 99, capabilities: ['ping'], ...overrides },
    });
  }
}

function setup(options: { extensionId?: string; random?: number; connect?: (name: string) => NativePort; onEvent?: HostConnectionDeps['onEvent']; helloTimeoutMs?: number | undefined } = {}) {
  const ports: FakePort[] = [];
  const statuses: HostStatus[] = [];
  const timers: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
  const names: string[] = [];
  const deps: HostConnectionDeps = {
    connect:
      options.connect ??
      ((name) => {
        names.push(name);
        const port = new FakePort();
        ports.push(port);
        return port;
      }),
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    now: () => 1000,
    random: () => options.random ?? 1,
    setTimer: (callback, ms) => {
      timers.push({ callback, ms, cleared: false });
      return (timers.length - 1) as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimer: (handle) => {
      const timer = timers[handle as unknown as number];
      if (timer) timer.cleared = true;
    },
    clientVersion: '0.0.1',
    ...(options.extensionId ? { extensionId: options.extensionId } : {}),
    onStatus: (status) => statuses.push(status),
    onEvent: options.onEvent,
    requestTimeoutMs: 5000,
    ...('helloTimeoutMs' in options ? (options.helloTimeoutMs === undefined ? {} : { helloTimeoutMs: options.helloTimeoutMs }) : { helloTimeoutMs: 1000 }),
  };
  const connection = new HostConnection(deps);
  const pendingTimers = () => timers.filter((timer) => !timer.cleared);
  /** Fires the one retry timer that is due, as the clock would. */
  const fireRetry = (): number => {
    const live = pendingTimers();
    expect(live).toHaveLength(1);
    const [timer] = live;
    if (!timer) throw new Error('no timer');
    timer.cleared = true;
    timer.callback();
    return timer.ms;
  };
  const port = (): FakePort => {
    const last = ports.at(-1);
    if (!last) throw new Error('no port');
    return last;
  };
  return { connection, ports, port, statuses, names, pendingTimers, fireRetry };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('HostConnection', () => {
  it('connects to the pinned host name and completes the hello handshake', async () => {
    const { connection, port, statuses, names } = setup();
    connection.start();
    expect(names).toEqual([NATIVE_HOST_NAME]);
    expect(connection.status.state).toBe('connecting');
    expect(port().posted[0]).toMatchObject({
      kind: 'request',
      method: 'hello',
      params: { protocolVersion: PROTOCOL_VERSION, client: 'extension', clientVersion: '0.0.1' },
    });
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    expect(connection.status).toEqual({ state: 'connected', hostVersion: '1.2.3', protocolVersion: PROTOCOL_VERSION, updatedAt: 1000 });
    expect(statuses.map((status) => status.state)).toEqual(['connecting', 'connected']);
  });

  it('says the host is not installed, with the command to run, when Chrome cannot find it', async () => {
    const { connection, port, pendingTimers } = setup();
    connection.start();
    port().drop('Specified native messaging host not found.');
    expect(connection.status).toMatchObject({ state: 'not_installed', message: `host not installed: run \`${HOST_INSTALL_COMMAND}\``, retryInMs: 30_000 });
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([30_000]);
    await expect(connection.call('ping', {})).rejects.toMatchObject({ code: 'host_not_installed' });
  });

  it('says the host is registered for another extension when Chrome forbids the connection', () => {
    const { connection, port } = setup();
    connection.start();
    port().drop('Access to the specified native messaging host is forbidden.');
    expect(connection.status).toMatchObject({ state: 'not_installed', message: expect.stringMatching(/another extension id/) as unknown });
  });

  it('a copy with its own id (from a store) is told the install line that allows that id', () => {
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    const { connection, port } = setup({ extensionId: id });
    connection.start();
    port().drop('Access to the specified native messaging host is forbidden.');
    expect(connection.status).toMatchObject({
      state: 'not_installed',
      message: `The host is registered for another extension id, not this copy's (${id}): run \`deputy install --extension-id ${id}\` (from a Deputy checkout: \`${HOST_INSTALL_COMMAND} -- --extension-id ${id}\`), then Retry.`,
    });
  });

  it('reconnects with exponential backoff that grows with jitter and stops growing at the cap', () => {
    const delays = (random: number): number[] => {
      const { connection, port, fireRetry } = setup({ random });
      connection.start();
      const seen: number[] = [];
      for (let attempt = 0; attempt < 9; attempt += 1) {
        port().drop('Native host has exited.');
        seen.push(fireRetry());
      }
      return seen;
    };
    expect(delays(1)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    // Jitter takes the delay down to half at most, never above the un-jittered value.
    expect(delays(0)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    const middle = delays(0.5);
    expect(middle[0]).toBe(750);
    expect(middle.at(-1)).toBe(45000);
  });

  it('starts the backoff over after a successful handshake', async () => {
    const { connection, port, fireRetry } = setup();
    connection.start();
    port().drop('Native host has exited.');
    expect(fireRetry()).toBe(1000);
    port().drop('Native host has exited.');
    expect(fireRetry()).toBe(2000);
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    expect(connection.status.state).toBe('connected');
    port().drop('Native host has exited.');
    expect(fireRetry()).toBe(1000);
  });

  it('keeps the plain reason for a host that exits after it had answered', async () => {
    const { connection, port } = setup();
    connection.start();
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    port().drop('Native host has exited.');
    expect(connection.status).toMatchObject({ state: 'disconnected', message: 'Native host has exited.' });
  });

  it('rejects every pending request when the port disconnects', async () => {
    const { connection, port } = setup();
    connection.start();
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    const calls = [connection.call('ping', {}), connection.call('ping', { echo: 'x' })].map((call) => call.catch((error: unknown) => error));
    expect(port().posted.filter((message) => message.method === 'ping')).toHaveLength(2);
    port().drop('Native host has exited.');
    for (const error of await Promise.all(calls)) {
      expect(error).toMatchObject({ code: 'disconnected', message: 'The host disconnected: Native host has exited.' });
    }
    expect(connection.status).toMatchObject({ state: 'disconnected', retryInMs: 1000 });
    await expect(connection.call('ping', {})).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('refuses to use a host that speaks another protocol, and says how to fix it', async () => {
    const { connection, port } = setup();
    connection.start();
    port().answerHello({ protocolVersion: PROTOCOL_VERSION + 1, compatible: false, hostVersion: '2.0.0' });
    await vi.runOnlyPendingTimersAsync();
    expect(connection.status).toMatchObject({ state: 'incompatible', hostVersion: '2.0.0', message: expect.stringContaining(HOST_INSTALL_COMMAND) as unknown });
    await expect(connection.call('ping', {})).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('shows a running host that has not answered yet as starting, since when and for what, and connects as soon as it answers', async () => {
    const { connection, port, pendingTimers, statuses } = setup();
    connection.start();
    const [starting] = pendingTimers();
    expect(starting?.ms).toBe(2000);
    if (starting) starting.cleared = true;
    starting?.callback();
    expect(connection.status).toEqual({ state: 'starting', waitingFor: WAITING_FOR_HELLO, since: 1000, updatedAt: 1000 });
    // Still waiting, with no retry scheduled and the port left open: a slow host is not a broken one.
    await vi.advanceTimersByTimeAsync(900);
    expect(port().disconnected).toBe(false);
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    expect(statuses.map((status) => status.state)).toEqual(['connecting', 'starting', 'connected']);
    expect(pendingTimers()).toEqual([]);
  });

  it('tells a host that exits while starting (broken) from one still starting, and retries it with backoff', () => {
    const { connection, port, pendingTimers } = setup();
    connection.start();
    const [starting] = pendingTimers();
    if (starting) starting.cleared = true;
    starting?.callback();
    expect(connection.status.state).toBe('starting');
    port().drop('Native host has exited.');
    expect(connection.status).toMatchObject({ state: 'disconnected', retryInMs: 1000 });
    expect(connection.status.message).toMatch(/^Native host has exited\. It exited before answering, so it is broken rather than slow .*moved.*npm run deputy -- doctor.*npm run host:install/);
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([1000]);
  });

  it('gives up on a host that never answers hello, and schedules a retry', async () => {
    const { connection, port, pendingTimers } = setup();
    connection.start();
    const first = port();
    await vi.advanceTimersByTimeAsync(1001);
    expect(first.disconnected).toBe(true);
    expect(connection.status).toMatchObject({ state: 'disconnected', message: expect.stringMatching(/^hello failed: host\.hello got no answer/) as unknown });
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([1000]);
  });

  it('waits minutes, not seconds, for a running host by default', () => {
    const { connection, port } = setup({ helloTimeoutMs: undefined });
    connection.start();
    vi.advanceTimersByTime(60_000);
    expect(port().disconnected).toBe(false);
    expect(connection.status.state).not.toBe('disconnected');
  });

  it('joins a chunked reply before handing it to the caller', async () => {
    const { connection, port } = setup();
    connection.start();
    port().answerHello();
    await vi.runOnlyPendingTimersAsync();
    const echo = '😀"'.repeat(100_000);
    const call = connection.call('ping', { echo });
    const request = port().posted.at(-1);
    const response = JSON.stringify({ kind: 'response', id: request?.id, ok: true, result: { time: 5, echo } });
    for (const chunk of splitIntoChunks(response, 'stream-1', 64 * 1024)) port().send(chunk);
    await expect(call).resolves.toEqual({ time: 5, echo });
  });

  it('passes host events on and ignores messages it does not understand', () => {
    const events: Array<[string, unknown]> = [];
    const { connection, port } = setup({ onEvent: (event, data) => events.push([event, data]) });
    connection.start();
    port().send({ kind: 'event', event: 'notice', data: { level: 'info', message: 'hi' } });
    port().send({ kind: 'nonsense' });
    port().send({ kind: 'chunk', stream: 's', index: 5, count: 2, data: '' });
    port().send({ kind: 'response', id: 'nobody', ok: true, result: {} });
    expect(events).toEqual([['notice', { level: 'info', message: 'hi' }]]);
    expect(connection.status.state).toBe('connecting');
  });

  it('connects again at once on reconnectNow, forgetting earlier failures', () => {
    const { connection, port, ports, pendingTimers } = setup();
    connection.start();
    port().drop('Native host has exited.');
    port().drop('Native host has exited.');
    connection.reconnectNow();
    // No retry is left waiting: only the new port's "starting" timer.
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([2000]);
    expect(ports).toHaveLength(2);
    port().drop('Native host has exited.');
    expect(connection.status).toMatchObject({ retryInMs: 1000 });
  });

  it('treats a connect call that throws like a disconnect', () => {
    const { connection, pendingTimers } = setup({
      connect: () => {
        throw new Error('Error: Specified native messaging host not found.');
      },
    });
    connection.start();
    expect(connection.status.state).toBe('not_installed');
    expect(pendingTimers()).toHaveLength(1);
  });
});
