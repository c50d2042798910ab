import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePerception, type PageSnapshot } from './support/perception-harness';

// Real apps no one here wrote: the TodoMVC examples shipped in the `todomvc` npm package (plain JS, React, Vue,
// Backbone, AngularJS), driven only through snapshot numbers, as the model drives them. The page's DOM is read only
// to check the outcome.
const APPS = ['vanillajs', 'react', 'vue', 'backbone', 'angularjs'];

/** The toggle checkbox of a todo: the checkbox listed right before the todo's label. */
function toggleOf(shot: PageSnapshot, title: string): number {
  const index = shot.elements.findIndex((el) => el.role === 'label' && el.name === title);
  const toggle = shot.elements[index - 1];
  if (index < 1 || toggle?.role !== 'checkbox') throw new Error(`No toggle before "${title}" in:\n${shot.text}`);
  return toggle.ref;
}

function labelOf(shot: PageSnapshot, title: string): number {
  const label = shot.elements.find((el) => el.role === 'label' && el.name === title);
  if (!label) throw new Error(`No todo "${title}" in:\n${shot.text}`);
  return label.ref;
}

/** The text box that is focused: after a double-click on a todo, its edit field. */
function focusedBox(shot: PageSnapshot): number {
  const line = shot.text.split('\n').find((l) => /^\*?\[\d+\] textbox .*focused/.test(l));
  const ref = line ? Number(/\[(\d+)\]/.exec(line)?.[1]) : NaN;
  if (Number.isNaN(ref)) throw new Error(`No focused text box in:\n${shot.text}`);
  return ref;
}

async function todos(page: Page): Promise<Array<{ title: string; done: boolean }>> {
  return page.$$eval('#todo-list li', (items) =>
    items.map((li) => ({ title: li.querySelector('label')?.textContent?.trim() ?? '', done: li.classList.contains('completed') })),
  );
}

// One browser for the apps: each keeps its todos under a key of its own and runs in a tab of its own, closed after it.
const h = usePerception();

describe.each(APPS)('TodoMVC %s driven by reference only', (app) => {
  let page: Page;
  let tabId: number;

  beforeAll(async () => {
    ({ page, tabId } = await h.open(`/todomvc/examples/${app}/index.html`));
    await page.waitForSelector('#new-todo');
  });

  afterAll(async () => {
    await page?.close();
  });

  it('adds todos through the new-todo field', async () => {
    const shot = await h.snapshot(tabId);
    const input = shot.elements.find((el) => el.role === 'textbox');
    // Named by its placeholder, as browsers name it.
    expect(shot.text).toMatch(/\[\d+\] textbox "What needs to be done\?"/);
    for (const title of ['Buy milk', 'Walk the dog', 'Write report']) {
      const outcome = await h.act(tabId, { kind: 'type', ref: input?.ref, text: title, submit: true });
      expect(outcome.ok, outcome.message).toBe(true);
    }
    expect(await todos(page)).toEqual([
      { title: 'Buy milk', done: false },
      { title: 'Walk the dog', done: false },
      { title: 'Write report', done: false },
    ]);
  });

  it('completes a todo with its checkbox', async () => {
    const shot = await h.snapshot(tabId);
    const outcome = await h.act(tabId, { kind: 'check', ref: toggleOf(shot, 'Walk the dog'), checked: true });
    expect(outcome.ok, outcome.message).toBe(true);
    expect(outcome.evidence).toContain('it is now checked');
    expect((await todos(page)).find((t) => t.title === 'Walk the dog')?.done).toBe(true);
  });

  it('edits a todo: double-click its label, then type into the edit field', async () => {
    const shot = await h.snapshot(tabId);
    const opened = await h.act(tabId, { kind: 'click', ref: labelOf(shot, 'Buy milk'), double: true });
    expect(opened.ok, opened.message).toBe(true);
    const editing = await h.snapshot(tabId);
    const saved = await h.act(tabId, { kind: 'type', ref: focusedBox(editing), text: 'Buy oat milk', clear: true, submit: true });
    expect(saved.ok, saved.message).toBe(true);
    expect((await todos(page)).map((t) => t.title)).toEqual(['Buy oat milk', 'Walk the dog', 'Write report']);
  });

  it('deletes todos: by clearing one in the edit field, and the completed one with "Clear completed"', async () => {
    const shot = await h.snapshot(tabId);
    await h.act(tabId, { kind: 'click', ref: labelOf(shot, 'Write report'), double: true });
    const editing = await h.snapshot(tabId);
    const cleared = await h.act(tabId, { kind: 'type', ref: focusedBox(editing), text: '', clear: true, submit: true });
    expect(cleared.ok, cleared.message).toBe(true);
    expect((await todos(page)).map((t) => t.title)).toEqual(['Buy oat milk', 'Walk the dog']);

    const after = await h.snapshot(tabId);
    const clear = after.elements.find((el) => el.role === 'button' && /Clear completed/i.test(el.name));
    if (!clear) throw new Error(`No "Clear completed" button in:\n${after.text}`);
    const removed = await h.act(tabId, { kind: 'click', ref: clear.ref });
    expect(removed.ok, removed.message).toBe(true);
    expect(await todos(page)).toEqual([{ title: 'Buy oat milk', done: false }]);
  });
});
