import { detectRefusalLoop, humanJoined, moveKey, nextEscalationMove } from '../../../shared/agent/support-loop';
import type { ChatState } from '../../../shared/protocol';
import type { ChatDriver } from './chat-driver';

/**
 * Getting past a support bot in a case: each time the case looks at the chat, a refusal loop (the same canned answer
 * or no progress, twice) is met with the move the chat itself offers towards a person — its "talk to a person" quick
 * reply, else the vendor's keyword — done here in code, not left to the model. The move carries none of the user's
 * facts and commits to nothing, so it needs no approval. When no person is reachable the note says so, for the model
 * to tell the user honestly.
 */
export interface EscalationStep {
  /** What happened, in words for the model (and the case's transcript). Empty when nothing was needed. */
  note: string;
  /** The chat after the move, when a move was made. */
  state: ChatState | null;
}

export function createSupportEscalation(chat: Pick<ChatDriver, 'send' | 'choose'>, tabId: number, goal: string | undefined) {
  const tried = new Set<string>();
  /** How many of their answers had been seen when the last move was made: one move per new loop, not per look. */
  let movedAt = -1;
  let gaveUp = false;

  return {
    tried: (): ReadonlySet<string> => tried,
    async step(state: ChatState): Promise<EscalationStep> {
      if (humanJoined(state.messages)) {
        return { note: tried.size > 0 ? 'A person has joined the chat: talk to them; repeat the goal and the facts the user gave, nothing more.' : '', state: null };
      }
      const verdict = detectRefusalLoop(state.messages, goal === undefined ? {} : { goal });
      if (!verdict.looping) return { note: '', state: null };
      const theirs = state.messages.filter((message) => message.author === 'them').length;
      if (theirs === movedAt) return { note: '', state: null };
      movedAt = theirs;
      const move = nextEscalationMove(state, tried);
      if (move.kind === 'none') {
        gaveUp = true;
        return {
          note: `${verdict.reason}. ${move.reason} Tell the user plainly that no person could be reached in this chat; do not pretend otherwise, and offer to write to support instead.`,
          state: null,
        };
      }
      tried.add(moveKey(move));
      if (move.kind === 'choice') {
        const result = await chat.choose(tabId, move.index);
        movedAt = result.state.messages.filter((message) => message.author === 'them').length;
        return { note: `${verdict.reason}. Deputy asked for a person by choosing the chat's quick reply "${move.label}"${result.taken ? '' : ' (the chat did not take it)'}.`, state: result.state };
      }
      const result = await chat.send(tabId, move.text);
      movedAt = result.state.messages.filter((message) => message.author === 'them').length;
      return { note: `${verdict.reason}. Deputy asked for a person by typing "${move.text}"${result.sent ? '' : ' (it could not be sent)'}.`, state: result.state };
    },
    gaveUp: () => gaveUp,
  };
}
