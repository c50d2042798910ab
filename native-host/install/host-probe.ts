import { spawn } from 'node:child_process';
import { EXTENSION_ORIGIN, MAX_MESSAGE_TO_BROWSER_BYTES, PROTOCOL_VERSION } from '../../shared/constants';
import { AppError } from '../../shared/errors';
import { HostChannel, RpcClient, type HostMethods, type ResultOf } from '../../shared/protocol';
import { FrameDecoder } from '../framing/frame-decoder';
import { encodeFrame } from '../framing/frame-encoder';
import type { OsName } from '../paths';

export type HelloResult = ResultOf<HostMethods, 'hello'>;

export type ProbeResult =
  | { ok: true; hello: HelloResult; ms: number; exitCode: number | null; stderr: string[] }
  | { ok: false; error: string; ms: number; stderr: string[]; stillStarting?: boolean };

/**
 * How long a probe waits for the answer to hello while the host is still running: a host on a busy machine may take
 * tens of seconds to start, and that is slow, not broken. A host that exits or writes garbage fails at once.
 */
export const PROBE_TIMEOUT_MS = 60_000;

/** Starts a launcher the way the browser does and says whether a host answered `hello` through it. */
export type HostProbe = (launcherPath: string) => Promise<ProbeResult>;

export interface ProbeOptions {
  os: OsName;
  clientVersion: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const STDERR_LINES = 8;

/**
 * A real round trip: spawn the launcher with the extension's origin as its argument (as Chrome does), send a framed
 * hello, read framed replies, then close stdin and expect the host to exit. Anything else on stdout (a shell profile
 * that prints, a stray console.log) shows up here as a corrupt frame, the same way Chrome would see it.
 */
export function spawnProbe(options: ProbeOptions): HostProbe {
  return (launcherPath) =>
    new Promise<ProbeResult>((resolve) => {
      const started = Date.now();
      const stderr: string[] = [];
      // Windows runs .bat files only through cmd; the browser does the same.
      const child =
        options.os === 'win32'
          ? spawn(`"${launcherPath}" ${EXTENSION_ORIGIN}`, { shell: true, env: options.env, windowsHide: true })
          : spawn(launcherPath, [EXTENSION_ORIGIN], { env: options.env });
      let settled = false;
      const finish = (result: ProbeResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      let running = true;
      const fail = (error: string, stillStarting = false): void => {
        finish({ ok: false, error, ms: Date.now() - started, stderr: stderr.slice(-STDERR_LINES), ...(stillStarting ? { stillStarting } : {}) });
        child.kill('SIGKILL');
      };
      const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
      const timer = setTimeout(
        () => fail(`no answer to hello within ${Math.round(timeoutMs / 1000)} s, though the host was still running`, running),
        timeoutMs,
      );

      const rpc = new RpcClient(HostChannel, {
        send: (message) => child.stdin.write(encodeFrame(JSON.stringify(message))),
        timeoutMs,
        idPrefix: 'doctor',
      });
      const decoder = new FrameDecoder(MAX_MESSAGE_TO_BROWSER_BYTES);
      let firstBytes: Buffer | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        firstBytes ??= chunk.subarray(0, 40);
        for (const item of decoder.push(chunk)) {
          if (item.type === 'corrupt') {
            const start = JSON.stringify(firstBytes.toString('utf8'));
            fail(`the host wrote something other than native-messaging frames to stdout (it began ${start}); Chrome would drop the connection`);
            return;
          }
          try {
            rpc.receive(JSON.parse(item.body.toString('utf8')));
          } catch {
            fail('the host wrote a frame that is not JSON');
            return;
          }
        }
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        stderr.push(...text.split('\n').filter((line) => line.trim() !== ''));
        stderr.splice(0, Math.max(0, stderr.length - 50));
      });
      child.on('error', (error) => fail(`could not start ${launcherPath}: ${error.message}`));
      child.stdin.on('error', () => undefined); // EPIPE when the launcher dies at once; 'exit' reports it.
      const exited = new Promise<number | null>((resolveExit) =>
        child.once('exit', (code, signal) => {
          running = false;
          rpc.rejectAll(new AppError('disconnected', `the host exited (${signal ?? `code ${code}`}) before it answered hello`));
          resolveExit(code);
        }),
      );

      rpc
        .call('hello', { protocolVersion: PROTOCOL_VERSION, client: 'cli', clientVersion: options.clientVersion })
        .then(
          async (hello) => {
            const ms = Date.now() - started;
            clearTimeout(timer);
            // The browser closes stdin when the port goes away: the host must then exit on its own.
            child.stdin.end();
            let exitTimer: ReturnType<typeof setTimeout> | undefined;
            const lingered = new Promise<'lingered'>((resolveLinger) => {
              exitTimer = setTimeout(() => resolveLinger('lingered'), 3000);
            });
            const exit = await Promise.race([exited, lingered]);
            clearTimeout(exitTimer);
            if (exit === 'lingered') {
              stderr.push('(the host did not exit within 3 s of its stdin closing, so it was killed)');
              child.kill('SIGKILL');
            }
            finish({ ok: true, hello, ms, exitCode: exit === 'lingered' ? null : exit, stderr: stderr.slice(-STDERR_LINES) });
          },
          (error: unknown) => fail(error instanceof Error ? error.message : String(error)),
        );
    });
}
