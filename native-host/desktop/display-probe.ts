export type ProbeResult = { ok: true; display: string | null } | { ok: false; reason: string };

export interface ProbeDeps {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Tries to open a connection: a Unix socket path or a TCP host and port. Resolves true when something answered. */
  connect(target: { path: string } | { host: string; port: number }): Promise<boolean>;
}

/** DISPLAY as X11 reads it: `[host]:number[.screen]`, with "unix" or an empty host meaning the local socket. */
export function parseDisplay(value: string): { host: string; number: number } | null {
  const match = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(value.trim());
  if (!match) return null;
  return { host: match[1] ?? '', number: Number(match[2]) };
}

/**
 * Decides whether an X display can be reached before anything touches nut-js, which kills the whole process with a
 * segfault when it cannot open one. macOS and Windows always have a screen for a logged-in user; on Linux and the BSDs
 * the X server named by DISPLAY must accept a connection. The reason says what to do about it.
 */
export async function probeDisplay(deps: ProbeDeps): Promise<ProbeResult> {
  if (deps.platform === 'darwin' || deps.platform === 'win32') return { ok: true, display: null };
  const value = deps.env.DISPLAY;
  if (value === undefined || value.trim() === '') {
    if (deps.env.WAYLAND_DISPLAY) {
      return {
        ok: false,
        reason:
          'This is a Wayland session without X access: desktop control needs an X display. Enable XWayland and set DISPLAY (usually :0), or log in to an X11 session.',
      };
    }
    return {
      ok: false,
      reason:
        'No display: DISPLAY is not set (a server, CI or a remote shell). Run Deputy in a desktop session, or start a virtual one (Xvfb :99) and set DISPLAY=:99.',
    };
  }
  const parsed = parseDisplay(value);
  if (!parsed) return { ok: false, reason: `DISPLAY="${value}" is not a valid X display name; it should look like :0 or localhost:10.0.` };
  const local = parsed.host === '' || parsed.host === 'unix';
  const target = local ? { path: `/tmp/.X11-unix/X${parsed.number}` } : { host: parsed.host, port: 6000 + parsed.number };
  const reachable = await deps.connect(target);
  if (!reachable) {
    const where = 'path' in target ? target.path : `${target.host}:${target.port}`;
    return {
      ok: false,
      reason: `No X server answers at DISPLAY=${value} (${where}). Start the desktop session or Xvfb for that display, or set DISPLAY to one that runs.`,
    };
  }
  return { ok: true, display: value };
}
