import { describe, expect, it } from 'vitest';
import { parseDisplay, probeDisplay, type ProbeDeps } from '../../../../native-host/desktop/display-probe';

function deps(env: Record<string, string | undefined>, listening: string[] = [], platform: NodeJS.Platform = 'linux'): ProbeDeps & { tried: string[] } {
  const tried: string[] = [];
  return {
    platform,
    env,
    tried,
    connect: (target) => {
      const where = 'path' in target ? target.path : `${target.host}:${target.port}`;
      tried.push(where);
      return Promise.resolve(listening.includes(where));
    },
  };
}

describe('parseDisplay', () => {
  it('reads local, unix and remote display names', () => {
    expect(parseDisplay(':0')).toEqual({ host: '', number: 0 });
    expect(parseDisplay('unix:5.0')).toEqual({ host: 'unix', number: 5 });
    expect(parseDisplay('localhost:10.0')).toEqual({ host: 'localhost', number: 10 });
    expect(parseDisplay('garbage')).toBeNull();
  });
});

describe('probeDisplay', () => {
  it('reports a missing DISPLAY with the way to get one', async () => {
    const result = await probeDisplay(deps({}));
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/DISPLAY is not set.*Xvfb :99/) as unknown });
  });

  it('tells a Wayland session without X apart', async () => {
    const result = await probeDisplay(deps({ WAYLAND_DISPLAY: 'wayland-0' }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/Wayland session without X access.*XWayland/);
  });

  it('connects to the local X socket before saying yes', async () => {
    const probe = deps({ DISPLAY: ':7' }, ['/tmp/.X11-unix/X7']);
    expect(await probeDisplay(probe)).toEqual({ ok: true, display: ':7' });
    expect(probe.tried).toEqual(['/tmp/.X11-unix/X7']);
  });

  it('says no X server answers when nothing listens, naming where it looked', async () => {
    const result = await probeDisplay(deps({ DISPLAY: ':42' }));
    expect(!result.ok && result.reason).toMatch(/No X server answers at DISPLAY=:42 \(\/tmp\/\.X11-unix\/X42\)/);
  });

  it('uses TCP port 6000+n for a remote display', async () => {
    const probe = deps({ DISPLAY: 'localhost:10.0' }, ['localhost:6010']);
    expect((await probeDisplay(probe)).ok).toBe(true);
  });

  it('rejects a malformed DISPLAY with the expected form', async () => {
    const result = await probeDisplay(deps({ DISPLAY: 'nonsense' }));
    expect(!result.ok && result.reason).toMatch(/should look like :0/);
  });

  it('does not probe on macOS and Windows, where a logged-in user has a screen', async () => {
    const probe = deps({}, [], 'darwin');
    expect((await probeDisplay(probe)).ok).toBe(true);
    expect(probe.tried).toEqual([]);
  });
});
