import { createInterface } from 'node:readline/promises';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../../shared/agent/approval';

export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/**
 * Approvals and questions answered in the terminal. With --approve all or none every approval is answered at once
 * (and says so on screen); otherwise the user types y or n. A closed input counts as "no": nothing risky happens
 * because nobody was there to say yes.
 */
export function terminalPrompts(terminal: Terminal, approve: 'all' | 'none' | 'ask'): { approver: Approver; askUser: (question: string, signal?: AbortSignal) => Promise<string> } {
  const ask = async (prompt: string, signal?: AbortSignal): Promise<string | null> => {
    const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: false });
    try {
      return await rl.question(prompt, signal ? { signal } : {});
    } catch {
      return null;
    } finally {
      rl.close();
    }
  };
  const approver: Approver = async (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> => {
    terminal.output.write(`  ? approval needed (${request.classes.join(', ')}): ${request.intent}\n    ${request.reason.replace(/\n/g, '\n    ')}\n`);
    if (approve !== 'ask') {
      terminal.output.write(`    answered ${approve === 'all' ? 'yes' : 'no'} by --approve ${approve}\n`);
      return approve === 'all' ? { approved: true } : { approved: false, note: 'Declined by --approve none.' };
    }
    const answer = await ask('    approve? [y/N] ', signal);
    return /^y(es)?$/i.test(answer?.trim() ?? '') ? { approved: true } : { approved: false, ...(answer ? { note: answer } : {}) };
  };
  const askUser = async (question: string, signal?: AbortSignal): Promise<string> => {
    terminal.output.write(`  ? the agent asks: ${question}\n`);
    const answer = await ask('    your answer: ', signal);
    return answer === null || answer.trim() === '' ? 'The user did not answer.' : answer.trim();
  };
  return { approver, askUser };
}
