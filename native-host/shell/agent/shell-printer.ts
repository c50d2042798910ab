import type { TraceRecord } from '../../../shared/agent/trace';
import type { ShellEvent } from '../shell-service';
import { commandLine, duration, processState } from '../../../shared/shell-text';

/** Lines of one command's output shown live; the rest is in the session log. */
const LIVE_LINES = 200;

/**
 * The live view of a shell task in a terminal: each command as it starts, its output as it arrives (cut after a few
 * hundred lines), how it ended or that it went on in the background, and the other tools' steps.
 */
export function shellPrinter(write: (line: string) => void, now: () => number): { trace(record: TraceRecord): void; event(event: ShellEvent): void } {
  const shown = new Map<string, number>();
  const states = new Map<string, string>();
  return {
    event: (event) => {
      if (event.kind === 'output') {
        const count = shown.get(event.processId) ?? 0;
        const lines = event.text.replace(/\n$/, '').split('\n');
        const room = Math.max(0, LIVE_LINES - count);
        for (const line of lines.slice(0, room)) write(`     │ ${line}`);
        if (count < LIVE_LINES && count + lines.length > LIVE_LINES) write(`     │ … (more output from ${event.processId} is in the session log)`);
        shown.set(event.processId, count + lines.length);
        return;
      }
      const p = event.process;
      const state = `${p.status}:${String(p.background)}`;
      const before = states.get(p.id);
      if (before === state) return;
      states.set(p.id, state);
      if (before === undefined) write(`  $ ${commandLine(p.command, 160)}   [${p.id}${p.background ? ', background' : ''}${p.pty ? ', pty' : ''}]`);
      else if (p.status === 'running' && p.background) write(`     … ${p.id} still running: it goes on in the background`);
      else write(`     └ ${p.id} ${processState(p, now())}`);
    },
    trace: (record) => {
      if (record.type === 'tool') {
        const first = (record.content ?? '').split('\n').find((line) => line.trim() !== '' && !line.startsWith('<')) ?? '';
        if (record.status === 'denied') write(`  ✗ ${record.name} not run: ${first.slice(0, 300)}`);
        else if (record.name !== 'run' && record.status !== 'skipped') write(`  · ${record.name} ${record.arguments.length > 120 ? `${record.arguments.slice(0, 119)}…` : record.arguments} -> ${first.slice(0, 200)}`);
      } else if (record.type === 'notice') write(`  note: ${record.message}`);
      else if (record.type === 'error') write(`  error: ${record.message}`);
      else if (record.type === 'memory') write(`  (working memory: steps 1-${record.throughStep + 1} summarized${record.by === 'list' ? ' as a list' : ''})`);
      else if (record.type === 'reply' && record.text.trim() !== '') write(`  > ${record.text.trim().split('\n')[0]?.slice(0, 200) ?? ''}`);
      else if (record.type === 'end') write(`  ${record.steps} steps in ${duration(record.durationMs)}`);
    },
  };
}
