import { describe, expect, it } from 'vitest';
import type { RuntimePort } from '../../../../extension/platform/runtime';
import { BackgroundClient } from '../../../../extension/ui/background-client';

/** A fake background: each connect() makes a new port; tests answer requests and drop ports. */
function fakeBackground() {
  const ports: { posted: unknown[]; deliver: (message: unknown) => void; drop: () => void }[] = [];
  const connect = (): RuntimePort => {
    const listeners: ((message: unknown) => void)[] = [];
    const disconnects: (() => void)[] = [];
    const entry = {
      posted: [] as unknown[],
      deliver: (message: unknown) => listeners.forEach((listener) => listener(message)),
      drop: () => disconnects.forEach((listener) => listener()),
    };
    ports.push(entry);
    return {
      name: 'ui',
      sender: undefined,
      post: (message) => entry.posted.push(message),
      onMessage: (listener) => listeners.push(listener),
      onDisconnect: (listener) => disconnects.push(listener),
      disconnect: () => undefined,
    };
  };
  return { ports, connect };
}

describe('the panel and popup link to the background', () => {
  it('resolves a typed result for its request', async () => {
    const background = fakeBackground();
    const client = new BackgroundClient({ connect: background.connect, setTimer: (fn) => fn() });
    client.start();
    const pending = client.call('launch.get', { tabId: 3 });
    const request = background.ports[0]?.posted[0] as { id: string; method: string };
    expect(request.method).toBe('launch.get');
    background.ports[0]?.deliver({ kind: 'response', id: request.id, ok: true, result: null });
    await expect(pending).resolves.toBeNull();
  });

  it('rejects pending requests when the worker stops, then reconnects and tells its views', async () => {
    const background = fakeBackground();
    const timers: (() => void)[] = [];
    const client = new BackgroundClient({ connect: background.connect, setTimer: (fn) => timers.push(fn) });
    let connects = 0;
    client.onConnect(() => (connects += 1));
    client.start();
    const pending = client.call('host.status', {});
    background.ports[0]?.drop();
    await expect(pending).rejects.toMatchObject({ code: 'disconnected' });
    expect(background.ports).toHaveLength(1);
    timers.shift()?.();
    expect(background.ports).toHaveLength(2);
    expect(connects).toBe(2);
    expect(client.connectionCount).toBe(2);
  });

  it('passes valid events to listeners and ignores malformed ones', () => {
    const background = fakeBackground();
    const client = new BackgroundClient({ connect: background.connect, setTimer: (fn) => fn() });
    const seen: string[] = [];
    client.onEvent((event) => seen.push(event));
    client.start();
    background.ports[0]?.deliver({ kind: 'event', event: 'host.status', data: { state: 'connected', updatedAt: 1 } });
    background.ports[0]?.deliver({ kind: 'event', event: 'host.status', data: { state: 'on fire' } });
    background.ports[0]?.deliver({ kind: 'event', event: 'unknown', data: {} });
    expect(seen).toEqual(['host.status']);
  });

  it('rejects a result that does not match the declared schema', async () => {
    const background = fakeBackground();
    const client = new BackgroundClient({ connect: background.connect, setTimer: (fn) => fn() });
    client.start();
    const pending = client.call('host.status', {});
    const request = background.ports[0]?.posted[0] as { id: string };
    background.ports[0]?.deliver({ kind: 'response', id: request.id, ok: true, result: { state: 'maybe' } });
    await expect(pending).rejects.toMatchObject({ code: 'bad_request' });
  });
});
