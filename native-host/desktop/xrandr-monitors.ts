import { execFile } from 'node:child_process';

export interface Monitor {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  primary: boolean;
}

/**
 * Reads `xrandr --listmonitors`, one line per monitor:
 * ` 0: +*DP-1 2560/597x1440/336+0+0  DP-1` (name, width/mm x height/mm + x + y, output).
 */
export function parseXrandrMonitors(text: string): Monitor[] {
  const monitors: Monitor[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*\d+:\s+\+?(\*?)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line);
    if (!match) continue;
    const [, star, name, width, height, x, y] = match;
    monitors.push({ name: name ?? '', primary: star === '*', width: Number(width), height: Number(height), x: Number(x), y: Number(y) });
  }
  return monitors;
}

/** The X screen's monitors, or none when xrandr is not installed or fails (then the whole screen is one display). */
export function listXrandrMonitors(env: NodeJS.ProcessEnv = process.env): Promise<Monitor[]> {
  return new Promise((resolve) => {
    execFile('xrandr', ['--listmonitors'], { env, timeout: 3000 }, (error, stdout) => {
      resolve(error ? [] : parseXrandrMonitors(stdout));
    });
  });
}
