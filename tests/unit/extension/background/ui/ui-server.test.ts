import { describe, expect, it, vi } from 'vitest';
import { UiServer, type UiHandlers } from '../../../../../extension/background/ui/ui-server';
import type { RuntimePort, Sender } from '../../../../../extension/platform/runtime';

function fakePort(name: string, sender: Sender) {
  const posted: unknown[] = [];
  const listeners: ((message: unknown) => void)[] = [];
  const disconnects: (() => void)[] = [];
  let disconnected = false;
  const port: RuntimePort = {
    name,
    sender,
    post: (message) => posted.push(message),
    onMessage: (listener) => listeners.push(listener),
    onDisconnect: (listener) => disconnects.push(listener),
    disconnect: () => {
      disconnected = true;
    },
  };
  return {
    port,
    posted,
    send: (message: unknown) => listeners.forEach((listener) => listener(message)),
    drop: () => disconnects.forEach((listener) => listener()),
    isDisconnected: () => disconnected,
  };
}

const status = { state: 'connected' as const, hostVersion: '1.2.3', updatedAt: 5 };
// Only the methods these tests call; the channel grows with other features.
const handlers = {
  'host.status': () => Promise.resolve(status),
  'host.reconnect': () => Promise.resolve(status),
  'host.ping': () => Promise.reject(new Error('host gone')),
  'content.ping': () => Promise.resolve({ frames: [] }),
  'launch.get': () => Promise.resolve(null),
  'launch.clear': () => Promise.resolve({}),
} satisfies Partial<UiHandlers> as unknown as UiHandlers;

const log = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the background side of the ui channel', () => {
  it('answers a privileged page with the handler result under the request id', async () => {
    const server = new UiServer(handlers, () => true, log);
    const page = fakePort('ui', { id: 'ext', url: 'chrome-extension://ext/extension/sidepanel/index.html' });
    server.accept(page.port);
    page.send({ kind: 'request', id: 'r1', method: 'host.status', params: {} });
    await flush();
    expect(page.posted).toEqual([{ kind: 'response', id: 'r1', ok: true, result: status }]);
  });

  it('closes a port from an unprivileged sender before it can ask anything', () => {
    const server = new UiServer(handlers, () => false, log);
    const page = fakePort('ui', { id: 'ext', url: 'https://evil.example/' });
    server.accept(page.port);
    expect(page.isDisconnected()).toBe(true);
    expect(server.connectedCount).toBe(0);
  });

  it('replies with typed errors to bad requests and failing handlers', async () => {
    const server = new UiServer(handlers, () => true, log);
    const page = fakePort('ui', { id: 'ext' });
    server.accept(page.port);
    page.send({ kind: 'request', id: 'r2', method: 'tabs.closeAll', params: {} });
    page.send({ kind: 'request', id: 'r3', method: 'content.ping', params: { tabId: 'seven' } });
    page.send('garbage');
    page.send({ kind: 'request', id: 'r4', method: 'host.ping', params: {} });
    await flush();
    const codes = page.posted.map((reply) => (reply as { id: string | null; error?: { code: string } }).error?.code);
    expect(codes).toEqual(['unknown_method', 'invalid_params', 'bad_request', 'internal']);
    expect((page.posted[3] as { id: string }).id).toBe('r4');
  });

  it('broadcasts events to every connected page and forgets closed ones', () => {
    const server = new UiServer(handlers, () => true, log);
    const a = fakePort('ui', { id: 'ext' });
    const b = fakePort('ui', { id: 'ext' });
    server.accept(a.port);
    server.accept(b.port);
    b.drop();
    server.broadcast('host.status', status);
    expect(a.posted).toEqual([{ kind: 'event', event: 'host.status', data: status }]);
    expect(b.posted).toEqual([]);
    expect(server.connectedCount).toBe(1);
  });

  it('leaves ports of other names alone', () => {
    const server = new UiServer(handlers, () => true, log);
    const other = fakePort('chat-stream', { id: 'ext' });
    server.accept(other.port);
    expect(server.connectedCount).toBe(0);
    expect(other.isDisconnected()).toBe(false);
  });
});
