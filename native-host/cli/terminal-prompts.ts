import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../shared/agent/approval';

export interface Terminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

export interface TerminalPrompts {
  approver: Approver;
  askUser: (question: string, signal?: AbortSignal) => Promise<string>;
  /** A yes/no question that is never answered by --approve (trusting a host key is not an action to approve). */
  confirm: (question: string, signal?: AbortSignal) => Promise<boolean>;
  /** A password or passphrase, not echoed on a terminal; null when the input is closed or empty. */
  secret: (prompt: string, signal?: AbortSignal) => Promise<string | null>;
  /** Releases the input, so the process can end. */
  close(): void;
}

/**
 * Reads answers line by line from one readline interface for the whole run: a piped input keeps every line in order
 * (a new interface per question would swallow the lines buffered after its own), and a closed input answers null.
 */
function lineReader(terminal: Terminal): { read(prompt: string, options?: { signal?: AbortSignal; hidden?: boolean }): Promise<string | null>; close(): void } {
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  let muted = false;
  let rl: Interface | undefined;
  const tty = terminal.input.isTTY === true;
  // On a terminal, typed characters are echoed through this writer, which stays silent while a secret is typed.
  const echo = new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      if (!muted) terminal.output.write(chunk);
      callback();
    },
  });
  const start = (): Interface => {
    rl ??= createInterface({ input: terminal.input, output: tty ? echo : undefined, terminal: tty });
    rl.on('line', (line) => {
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    });
    rl.on('close', () => {
      ended = true;
      for (const next of waiting.splice(0)) next(null);
    });
    return rl;
  };
  return {
    read: (prompt, options = {}) => {
      start();
      terminal.output.write(prompt);
      const queued = lines.shift();
      if (queued !== undefined || ended) {
        const line = queued ?? null;
        if (!tty || options.hidden) terminal.output.write(options.hidden || line === null ? '\n' : `${line}\n`);
        return Promise.resolve(line);
      }
      muted = options.hidden === true && tty;
      return new Promise<string | null>((resolve) => {
        const onAbort = (): void => {
          const at = waiting.indexOf(settle);
          if (at !== -1) waiting.splice(at, 1);
          settle(null);
        };
        const settle = (line: string | null): void => {
          options.signal?.removeEventListener('abort', onAbort);
          muted = false;
          // A terminal echoed the answer as it was typed; a pipe did not, so the transcript shows it here (never a secret).
          if (!tty || options.hidden) terminal.output.write(options.hidden || line === null ? '\n' : `${line}\n`);
          resolve(line);
        };
        waiting.push(settle);
        options.signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    close: () => rl?.close(),
  };
}

/**
 * Approvals and questions answered in the terminal. With --approve all or none every approval is answered at once
 * (and says so on screen); otherwise the user types y or n, or a to always allow what the approval offers. A closed
 * input counts as "no": nothing risky happens because nobody was there to say yes.
 */
export function terminalPrompts(terminal: Terminal, approve: 'all' | 'none' | 'ask'): TerminalPrompts {
  const reader = lineReader(terminal);
  const approver: Approver = async (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> => {
    terminal.output.write(`  ? approval needed (${request.classes.join(', ')}): ${request.intent}\n    ${request.reason.replace(/\n/g, '\n    ')}\n`);
    if (approve !== 'ask') {
      terminal.output.write(`    answered ${approve === 'all' ? 'yes' : 'no'} by --approve ${approve}\n`);
      return approve === 'all' ? { approved: true } : { approved: false, note: 'Declined by --approve none.' };
    }
    const prefix = request.alwaysAllowPrefix;
    const choices = prefix === undefined ? '[y/N]' : `[y/N, or a to always allow commands starting with "${prefix}"]`;
    const answer = (await reader.read(`    approve? ${choices} `, signal ? { signal } : {}))?.trim() ?? '';
    if (prefix !== undefined && /^a(lways)?$/i.test(answer)) return { approved: true, alwaysAllowPrefix: prefix };
    return /^y(es)?$/i.test(answer) ? { approved: true } : { approved: false, ...(answer ? { note: answer } : {}) };
  };
  const askUser = async (question: string, signal?: AbortSignal): Promise<string> => {
    terminal.output.write(`  ? the agent asks: ${question}\n`);
    const answer = await reader.read('    your answer: ', signal ? { signal } : {});
    return answer === null || answer.trim() === '' ? 'The user did not answer.' : answer.trim();
  };
  const confirm = async (question: string, signal?: AbortSignal): Promise<boolean> => {
    const answer = await reader.read(`  ? ${question.replace(/\n/g, '\n    ')} [y/N] `, signal ? { signal } : {});
    return /^y(es)?$/i.test(answer?.trim() ?? '');
  };
  const secret = async (prompt: string, signal?: AbortSignal): Promise<string | null> => {
    const answer = await reader.read(`  ? ${prompt} (typed by you, never shown to the model): `, { hidden: true, ...(signal ? { signal } : {}) });
    return answer === null || answer === '' ? null : answer;
  };
  return { approver, askUser, confirm, secret, close: () => reader.close() };
}
