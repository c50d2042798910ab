import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMailTask } from '../../../../scripts/eval/expressible/solvers-widgets';
import { needShared } from '../../../support/shared-dir';

// The expressible eval's mail solution reads what a mail task asks from its instruction. The cases are every wording
// the MiniWoB++ mail families can show: the templates in their pages and in the people-written template file, each
// filled with a sender, someone to forward to (who may also have mail in the box) and a reply.
const miniwob = needShared('miniwob');

type Action = 'reply' | 'forward' | 'delete' | 'important';

function templates(): { action: Action; text: string }[] {
  const out: { action: Action; text: string }[] = [];
  const file = readFileSync(`${miniwob.path}/common/special/email-inbox-nl/templates.js`, 'utf8');
  const table = JSON.parse(file.slice(file.indexOf('{'), file.lastIndexOf('}') + 1)) as Record<string, { train: string[]; test: string[] }>;
  for (const [action, sets] of Object.entries(table)) for (const text of [...sets.train, ...sets.test]) out.push({ action: action as Action, text });
  for (const page of readdirSync(`${miniwob.path}/miniwob`).filter((name) => name.startsWith('email-inbox-forward-nl'))) {
    const html = readFileSync(`${miniwob.path}/miniwob/${page}`, 'utf8');
    for (const match of html.matchAll(/^\s*'([^'\n]*NAME[^'\n]*)',?$/gm)) out.push({ action: 'forward', text: match[1] ?? '' });
  }
  return out;
}

describe.skipIf(miniwob.missing !== null)(miniwob.title('reading a mail task'), () => {
  it('finds the sender, the action, the one to forward to and the reply in every wording', () => {
    const cases = templates();
    expect(cases.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const { action, text } of cases) {
      // Some people-written wordings swap the two names (the mail "from DEST" forwarded "to NAME"): the page still
      // wants NAME's mail, which no reader of the words could know; those are read as written, not checked here.
      const swapped = /(?:from|by) DEST|DEST's|to NAME\b/.test(text);
      for (const destHasMail of [false, true]) {
        const instruction = text.replace(/NAME/g, 'Jocelin').replace(/DEST/g, 'Melody').replace(/MSG/g, 'Ut quis. Arcu.');
        const senders = destHasMail ? ['Stormi', 'Melody', 'Jocelin'] : ['Stormi', 'Jocelin'];
        const got = readMailTask(instruction, senders);
        const sender = swapped ? 'Melody' : 'Jocelin';
        const ok =
          got.action === action &&
          (swapped || got.sender === sender) &&
          (action !== 'forward' || swapped || got.dest === 'Melody') &&
          (action !== 'reply' || got.reply === 'Ut quis. Arcu.');
        if (!ok) wrong.push(`${instruction} (${destHasMail ? 'both have mail' : 'only the sender has mail'}) => ${JSON.stringify(got)}`);
      }
    }
    // The figure is the rule's reach, printed when it falls short, so a new wording shows what it broke.
    expect(wrong, wrong.join('\n')).toEqual([]);
  });
});
