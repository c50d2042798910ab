import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DesktopPolicy } from '../../../../native-host/desktop/desktop-policy';
import { DesktopService, type DesktopServiceDeps, type WorkerHandle } from '../../../../native-host/desktop/desktop-service';
import { DesktopWorkerChannel } from '../../../../native-host/desktop/worker-channel';
import { workerHandlers } from '../../../../native-host/desktop/worker-handlers';
import { createRouter } from '../../../../native-host/host/router';
import { silentLogger } from '../../../../native-host/log/logger';
import { fakeDriver, type FakeDriver } from './fake-driver';

interface FakeWorker extends WorkerHandle {
  crash(signal: string): void;
  pressStopHotkey(): void;
  killed: boolean;
}

/** The real worker handlers behind an in-memory pipe, with a fake driver instead of nut-js. */
function fakeWorker(driver: FakeDriver, options: { crashOnInit?: boolean } = {}): FakeWorker {
  const messageListeners: ((message: unknown) => void)[] = [];
  const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  let onStop: (() => void) | undefined;
  const deliver = (message: unknown): void => void setTimeout(() => messageListeners.forEach((l) => l(message)), 0);
  const handlers = workerHandlers({
    driver,
    sharp,
    platform: 'linux',
    flagsSensitive: () => false,
    sleep: () => Promise.resolve(),
    now: () => Date.now(),
    emit: (event, data) => deliver({ kind: 'event', event, data }),
    listenForHotkey: (_chord, stop) => {
      onStop = stop;
      return Promise.resolve(undefined);
    },
  });
  const route = createRouter(DesktopWorkerChannel, handlers, { log: silentLogger, emit: () => undefined });
  const worker: FakeWorker = {
    killed: false,
    send: (message) => {
      if (options.crashOnInit) return void setTimeout(() => worker.crash('SIGSEGV'), 0);
      void route(Buffer.from(JSON.stringify(message))).then(deliver);
    },
    onMessage: (listener) => void messageListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
    kill: () => {
      worker.killed = true;
    },
    close: () => {
      worker.killed = true;
      return Promise.resolve();
    },
    crash: (signal) => exitListeners.forEach((l) => l(null, signal)),
    pressStopHotkey: () => onStop?.(),
  };
  return worker;
}

function service(overrides: Partial<DesktopServiceDeps> & { workers?: FakeWorker[]; driver?: FakeDriver } = {}) {
  const workers = overrides.workers ?? [];
  const driver = overrides.driver ?? fakeDriver();
  const desktop = new DesktopService({
    probe: () => Promise.resolve({ ok: true, display: ':99' }),
    startWorker: () => {
      const worker = fakeWorker(driver);
      workers.push(worker);
      return worker;
    },
    loadPolicy: () => Promise.resolve(DesktopPolicy.parse({})),
    stopHotkey: 'ctrl+alt+shift+s',
    listenForHotkey: true,
    log: silentLogger,
    maxImageBytes: 700_000,
    ...overrides,
  });
  return { desktop, workers, driver };
}

describe('DesktopService', () => {
  it('reports displays and the stop hotkey once the worker is up', async () => {
    const { desktop } = service();
    const status = await desktop.status();
    expect(status).toMatchObject({ available: true, stopHotkey: 'Ctrl+Alt+Shift+S', stopHotkeyActive: true, displays: [{ id: '0', width: 1280 }] });
  });

  it('without a display answers unavailable with the reason and starts no worker', async () => {
    const { desktop, workers } = service({ probe: () => Promise.resolve({ ok: false, reason: 'No display: DISPLAY is not set.' }) });
    expect(await desktop.status()).toEqual({ available: false, reason: 'No display: DISPLAY is not set.' });
    await expect(desktop.screenshot({})).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/DISPLAY is not set/) as unknown });
    expect(workers).toHaveLength(0);
  });

  it('reports a worker that crashes on start (a display nut-js cannot open) as unavailable, not as a crash', async () => {
    const { desktop } = service({ startWorker: () => fakeWorker(fakeDriver(), { crashOnInit: true }) });
    const status = await desktop.status();
    expect(status.available).toBe(false);
    expect(!status.available && status.reason).toMatch(/signal SIGSEGV/);
  });

  it('starts a new worker after one dies mid-task', async () => {
    const { desktop, workers } = service();
    await desktop.status();
    workers[0]?.crash('SIGKILL');
    const shot = await desktop.screenshot({ width: 320 });
    expect(shot.frame).toEqual({ displayId: '0', width: 320, height: 200 });
    expect(workers).toHaveLength(2);
  });

  it('takes a downscaled JPEG screenshot and acts on its coordinates', async () => {
    const { desktop, driver } = service();
    const shot = await desktop.screenshot({ width: 640, quality: 60 });
    expect(shot.image.mediaType).toBe('image/jpeg');
    expect(Buffer.from(shot.image.base64, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(shot.captured).toEqual({ width: 1280, height: 800 });
    const result = await desktop.act({ action: { kind: 'click', x: 320, y: 200 }, frame: shot.frame });
    expect(result.screenPoint).toEqual({ x: 641, y: 401 });
    expect(driver.calls).toEqual(['move 641,401', 'click left x1']);
  });

  it('rejects actions with bad arguments before they reach the worker', async () => {
    const { desktop, driver } = service();
    await expect(desktop.act({ action: { kind: 'scroll', x: 1, y: 1, direction: 'sideways' } } as never)).rejects.toThrow();
    expect(driver.calls).toEqual([]);
  });

  it('tells listeners when the user presses the stop hotkey and cuts off the running action', async () => {
    let release: () => void = () => undefined;
    const driver = fakeDriver({ onType: () => new Promise<void>((resolve) => (release = resolve)) });
    const { desktop, workers } = service({ driver });
    const stops: string[] = [];
    desktop.onStop((event) => stops.push(event.hotkey));
    await desktop.status();
    const typing = desktop.act({ action: { kind: 'type', text: 'a long text typed key by key' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    workers[0]?.pressStopHotkey();
    release();
    await expect(typing).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stops).toEqual(['Ctrl+Alt+Shift+S']);
    expect(driver.calls).toEqual(['type a long t']);
  });

  it('reports a broken policy file as the reason desktop control is unavailable', async () => {
    const { desktop } = service({ loadPolicy: () => Promise.reject(new Error('The desktop policy /p.json is not valid JSON; fix it or delete it.')) });
    const status = await desktop.status();
    expect(!status.available && status.reason).toMatch(/p\.json is not valid JSON/);
  });
});
