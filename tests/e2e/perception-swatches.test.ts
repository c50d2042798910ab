import { expect, it } from 'vitest';
import { openTab } from './support/open-tab';
import { call, lastMessage } from './support/snapshot-refs';
import { uiCall } from './support/ui-call';
import { useE2e } from './support/e2e-fixture';
import { untilTaskEnds } from './support/task-harness';

// Issue 26 item 5 with item 1: a control with no words stays unnamed (as the accessibility tree has it), but what a
// person sees on it is said: a swatch's colour. And what an instruction shows only as a picture inside its text (an
// icon, a colour sample) is written into the text where it stands. Boxes that are not swatches (a rule, a panel, a box
// the colour of what is behind it) say nothing.

const SWATCHES = ['#e60000', '#0066cc', '#9933ff'];
const PAGE = `<!doctype html><html><head><title>Swatches</title>
<style>
  body { font: 14px sans-serif; background: #ffffff; }
  .sw { display: inline-block; width: 16px; height: 16px; margin: 2px; cursor: pointer; }
  .ui-icon { display: inline-block; width: 16px; height: 16px; text-indent: -99999px; overflow: hidden;
    background-image: url(/img/ui-icons_444444_256x240.png); }
  .ui-icon-disk { background-position: -96px -112px; }
  .ui-icon-play { background-position: 0 -160px; }
  .ui-icon-trash { background-position: -176px -96px; }
  .ui-icon-pencil { background-position: -64px -112px; }
  .cc { display: inline-block; width: 20px; height: 20px; background-color: #3a5f00; }
</style></head><body>
<p id="pick">Click the swatch in the picker.</p>
<div id="picker">${SWATCHES.map((c) => `<span class="sw" role="button" tabindex="0" data-value="${c}" style="background-color:${c}"></span>`).join('')}</div>
<p id="icon-query">Find the item with the <span class="ui-icon ui-icon-disk"></span> icon and press it.</p>
<p id="colour-query">Select the following color <span class="cc"></span> with the picker.</p>
<ul><li><span class="ui-icon ui-icon-play"></span>Play</li></ul>
<div id="tools">Tools: <span class="ui-icon ui-icon-trash" style="cursor:pointer"></span> <span class="ui-icon ui-icon-pencil" id="edit"></span></div>
<p>A rule <span style="display:inline-block;width:120px;height:2px;background:#333"></span> and a panel
<span style="display:inline-block;width:300px;height:90px;background:#ddeeff"></span> and a white box
<span style="display:inline-block;width:20px;height:20px;background:#ffffff"></span> end here.</p>
<p id="log"></p>
<script>
  document.getElementById('edit').addEventListener('click', () => undefined);
  document.querySelectorAll('.sw').forEach((el) => el.addEventListener('click', () => { document.getElementById('log').textContent += el.dataset.value + ';'; }));
</script></body></html>`;

const e2e = useE2e({ model: 'act', stepBudget: 10, routes: { '/swatches': PAGE } });

it('says the colour of an unnamed swatch and writes icons and colour samples into the text they stand in', async () => {
  const helper = await e2e.helper();
  const { page, tabId } = await openTab(e2e.ext, helper, e2e.site.url('/swatches', 'shop.test'));
  const views: string[] = [];
  e2e.fake.enqueue((request) => {
    const view = lastMessage(request);
    views.push(view);
    // The blue swatch, told apart by its colour alone.
    const blue = /\[(\d+)\] button unnamed, colour "#0066cc"/.exec(view);
    return blue ? call('click', { ref: Number(blue[1]) }) : call('done', { success: false, summary: 'No blue swatch.' });
  });
  e2e.fake.enqueue(() => call('done', { success: true, summary: 'Clicked the blue swatch.' }));
  const started = await uiCall(helper, 'task.start', { tabId, text: 'Click the blue swatch.', mode: 'act', flow: 'task' });
  await untilTaskEnds(helper, started.id, 90_000);
  const first = views[0] ?? '';
  // Each swatch is unnamed (no name is made up for it) and says its colour.
  for (const colour of SWATCHES) expect(first).toMatch(new RegExp(`\\[\\d+\\] button unnamed, colour "${colour}"`));
  // The icon and the colour sample stand in their sentences; a sprite icon is known by its class, not its sheet.
  expect(first.replace(/\s+/g, ' ')).toContain('Find the item with the [icon "disk"] icon and press it.');
  expect(first.replace(/\s+/g, ' ')).toContain('Select the following color [colour "#3a5f00"] with the picker.');
  expect(first).toContain('[icon "play"]');
  expect(first).not.toContain('ui-icons_444444');
  // An icon that is itself a control (by its pointer or its listener) is said once, on its numbered line.
  for (const icon of ['trash', 'pencil']) {
    expect(first).toMatch(new RegExp(`\\[\\d+\\] \\w+ unnamed, icon "${icon}"`));
    expect(first).not.toContain(`[icon "${icon}"]`);
  }
  // A thin rule, a large panel and a box the colour of the page are not swatches.
  expect(first.replace(/\s+/g, ' ')).toContain('A rule and a panel and a white box end here.');
  // The number the colour was read from reached that swatch.
  expect(await page.$eval('#log', (el) => el.textContent ?? '')).toBe('#0066cc;');
  await page.close();
});
