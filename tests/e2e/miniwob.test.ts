import type { DirectoryServer } from '../../scripts/bench/serve-directory';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { episodeResult, miniwobMissing, serveMiniwob, solved, startEpisode, taskUrl } from '../../scripts/lib/miniwob-harness';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { requireBuild } from './support/register-host';
import { call, lastMessage, refIn } from './support/snapshot-refs';
import { results, runTask, startTaskBrowser, type TaskBrowser } from './support/task-harness';

// MiniWoB++ tasks of the date, time, slider, drag, dialog, scroll and copy-paste families, solved through Deputy's
// tools by scripted models that decide from the snapshot text they are sent (never from the page's JavaScript state),
// with the page's own reward deciding. The pages come from ../shared/miniwob, served as miniwob.test.

const missing = miniwobMissing();

/** A scripted model: what to call next, from the page it was sent and what it did so far. */
type Model = (page: string, request: RecordedRequest, done: string[]) => ReturnType<typeof call>;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The instruction at the top of the page, as the snapshot shows it. */
function instruction(page: string, pattern: RegExp): RegExpExecArray {
  const match = pattern.exec(page);
  if (!match) throw new Error(`The page does not show the instruction ${String(pattern)}:\n${page.slice(0, 1500)}`);
  return match;
}

function ref(request: RecordedRequest, role: string, name: RegExp = /.*/): number {
  return refIn(request, role, name);
}

const submit = (r: RecordedRequest): ReturnType<typeof call> => call('click', { ref: ref(r, 'button', /^Submit$/) });

/** Plays fixed steps, one a turn, then finishes. */
const steps =
  (...list: ((page: string, r: RecordedRequest) => ReturnType<typeof call>)[]): Model =>
  (page, r, done) => {
    const step = list[done.length];
    return step ? step(page, r) : call('done', { success: true, summary: 'Submitted.' });
  };

const MODELS: Record<string, Model> = {
  'enter-date': steps(
    (page, r) => call('type', { ref: ref(r, 'date'), text: instruction(page, /Enter (\S+) as the date/)[1] }),
    (_page, r) => submit(r),
  ),
  'enter-time': steps(
    (page, r) => call('type', { ref: ref(r, 'time'), text: instruction(page, /Enter (.+?) as the time/)[1] }),
    (_page, r) => submit(r),
  ),
  // A jQuery UI date picker on a read-only field: open it, page through the months with the keys it offers
  // (PageUp, PageDown), and click the day.
  'choose-date': (page, r, done) => {
    if (done.at(-1) === 'click:Submit') return call('done', { success: true, summary: 'Chose the date.' });
    const [, mm = '', dd = '', yyyy = ''] = instruction(page, /Select (\d\d)\/(\d\d)\/(\d{4}) as the date/);
    const field = ref(r, 'textbox', /^#datepicker$/);
    if (new RegExp(`textbox "#datepicker" value="${mm}/${dd}/${yyyy}"`).test(page)) return submit(r);
    // The month shown heads the calendar (its Prev and Next are icons whose words a person does not see).
    const shown = new RegExp(`(${MONTHS.join('|')}) (\\d{4}) Su Mo`).exec(page);
    if (!shown) return call('click', { ref: field });
    const months = Number(yyyy) * 12 + Number(mm) - 1 - (Number(shown[2]) * 12 + MONTHS.indexOf(shown[1] ?? ''));
    if (months !== 0) return call('press', { ref: field, key: months < 0 ? 'PageUp' : 'PageDown', times: Math.abs(months) });
    return call('click', { ref: ref(r, 'link', new RegExp(`^${Number(dd)}$`)) });
  },
  // A jQuery UI slider: its handle takes arrow keys; the value is shown beside it.
  'use-slider': (page, r, done) => {
    if (done.at(-1) === 'click:Submit') return call('done', { success: true, summary: 'Set the slider.' });
    const wanted = Number(instruction(page, /Select (-?\d+) with the slider/)[1]);
    const now = Number(instruction(page, /focusable "\.ui-slider-handle"[^\n]*\n(-?\d+)/)[1]);
    if (now === wanted) return submit(r);
    return call('press', { ref: ref(r, 'focusable', /slider-handle/), key: wanted > now ? 'ArrowRight' : 'ArrowLeft', times: Math.min(100, Math.abs(wanted - now)) });
  },
  'drag-items': steps((page) => {
    const [, name = '', where = ''] = instruction(page, /Drag (\S+) (.+?)\.\n/);
    const items = [...page.matchAll(/\[(\d+)\] draggable "([^"]+)"/g)].map((m) => ({ ref: Number(m[1]), name: m[2] ?? '' }));
    const from = items.findIndex((item) => item.name === name);
    const ordinal = /to the (\d+)\w+ position/.exec(where);
    const to = where === 'to the top' ? 0 : where === 'to the bottom' ? items.length - 1 : where === 'up by one position' ? from - 1 : where === 'down by one position' ? from + 1 : Number(ordinal?.[1]) - 1;
    return call('drag', { ref: items[from]?.ref, to_ref: items[to]?.ref, position: to < from ? 'before' : 'after' });
  }),
  'drag-box': steps(
    (_page, r) => call('drag', { ref: ref(r, 'draggable', /^s$/), to_ref: ref(r, 'draggable', /^L$/) }),
    (_page, r) => submit(r),
  ),
  'click-dialog': steps((_page, r) => call('click', { ref: ref(r, 'button', /^Close$/) })),
  'click-scroll-list': steps(
    (page, r) => call('select', { ref: ref(r, 'listbox'), values: instruction(page, /Select (.+?) from the scroll list/)[1]?.split(', ') ?? [] }),
    (_page, r) => submit(r),
  ),
  // The text area shows its start; scrolled down, the snapshot shows its end, where the last word is.
  'scroll-text': steps(
    (_page, r) => call('scroll', { ref: ref(r, 'textbox', /^#text-area$/), direction: 'down', pages: 10 }),
    (page, r) => {
      const tail = instruction(page, /textbox "#text-area" value="…([^"]*)"/)[1] ?? '';
      const word = tail.trim().split(/\s+/).at(-1)?.replace(/[^A-Za-z0-9]/g, '') ?? '';
      return call('type', { ref: ref(r, 'textbox', /^#answer-input$/), text: word });
    },
    (_page, r) => submit(r),
  ),
  // The text ends with a space the snapshot does not show: copy and paste it, as the task says.
  'copy-paste': steps(
    (_page, r) => call('click', { ref: ref(r, 'textbox', /^#to-copy$/) }),
    (_page, r) => call('press', { ref: ref(r, 'textbox', /^#to-copy$/), key: 'Control+A' }),
    () => call('press', { key: 'Control+C' }),
    (_page, r) => call('click', { ref: ref(r, 'textbox', /^#answer-input$/) }),
    (_page, r) => call('press', { ref: ref(r, 'textbox', /^#answer-input$/), key: 'Control+V' }),
    (_page, r) => submit(r),
  ),
};

/** The calls the model made so far in this task, as "name" or "click:<name of what it clicked>", from the results. */
function doneSoFar(request: RecordedRequest): string[] {
  const body = request.json as { messages?: { role: string; content?: string | null }[] } | undefined;
  return (body?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => {
      const clicked = /^Clicked \[\d+\] \w+ "([^"]*)"/.exec(m.content ?? '');
      return clicked ? `click:${clicked[1]}` : (m.content ?? '').split(' ')[0] ?? '';
    });
}

let browser: TaskBrowser;
let server: DirectoryServer;

describe.skipIf(missing !== null)(`MiniWoB++ through Deputy's tools${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    requireBuild();
    server = await serveMiniwob();
    browser = await startTaskBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(() => browser.fake.drop());

  it.each(Object.keys(MODELS))('solves %s, as the page\'s own reward says', async (task) => {
    const model = MODELS[task];
    if (!model) throw new Error(`no model for ${task}`);
    const { page, tabId } = await browser.newTab(taskUrl(server, task, 'miniwob.test'));
    await startEpisode(page, { seed: `deputy-${task}` });
    for (let turn = 0; turn < 16; turn += 1) browser.fake.enqueue((r: RecordedRequest) => model(lastMessage(r), r, doneSoFar(r)));
    const { record } = await runTask(browser, tabId, 'Do the task the page states at its top.');
    const result = await episodeResult(page);
    expect(solved(result), `${task}: ${JSON.stringify(result)}\n${results(record).map((c) => `${c.text}: ${c.content.split('\n')[0]}`).join('\n')}`).toBe(true);
    await page.close();
  });
});
