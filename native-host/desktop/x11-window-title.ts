import { execFile } from 'node:child_process';

type Run = (command: string, args: string[]) => Promise<string | undefined>;

const run: Run = (command, args) =>
  new Promise((resolve) => {
    execFile(command, args, { timeout: 2000 }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
  });

/**
 * The focused window's title on X11, read by a child process. nut-js's own lookup reads _NET_ACTIVE_WINDOW directly and
 * an X error there (no window manager, a window that just closed) ends the process, so a separate xdotool (or xprop)
 * run takes that risk instead. Undefined when neither tool is installed or no window has the focus.
 */
export async function x11WindowTitle(exec: Run = run): Promise<string | undefined> {
  const viaXdotool = await exec('xdotool', ['getwindowfocus', 'getwindowname']);
  if (viaXdotool !== undefined) return viaXdotool;
  const active = await exec('xprop', ['-root', '_NET_ACTIVE_WINDOW']);
  const id = active === undefined ? undefined : /window id # (0x[0-9a-f]+)/i.exec(active)?.[1];
  if (id === undefined) return undefined;
  const name = await exec('xprop', ['-id', id, '_NET_WM_NAME', 'WM_NAME']);
  return name === undefined ? undefined : /= "(.*)"/.exec(name)?.[1];
}
