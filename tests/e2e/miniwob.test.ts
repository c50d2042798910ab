import type { DirectoryServer } from '../../scripts/bench/serve-directory';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { episodeResult, miniwobMissing, serveMiniwob, solved, startEpisode, taskUrl } from '../../scripts/lib/miniwob-harness';
import type { RecordedRequest } from '../fixtures/fake-provider/fake-provider-server';
import { doneSoFar, MINIWOB_MODELS } from '../fixtures/miniwob-models';
import { lastMessage } from './support/snapshot-refs';
import { results, runTask, useTaskBrowser } from './support/task-harness';

// MiniWoB++ tasks of the date, time, slider, drag, dialog, scroll and copy-paste families, solved through Deputy's
// tools by scripted models that decide from the snapshot text they are sent (never from the page's JavaScript state),
// with the page's own reward deciding. The pages come from ../shared/miniwob, served as miniwob.test.

const missing = miniwobMissing();

let server: DirectoryServer;

describe.skipIf(missing !== null)(`MiniWoB++ through Deputy's tools${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const browser = useTaskBrowser();
  beforeAll(async () => {
    const started = await serveMiniwob();
    server = started;
    browser.afterClose(() => started.close());
  });
  afterEach(() => browser.fake.drop());

  it.each(Object.keys(MINIWOB_MODELS))('solves %s, as the page\'s own reward says', async (task) => {
    const model = MINIWOB_MODELS[task];
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
