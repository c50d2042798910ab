import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_LEGEND } from '../../../../shared/perception/snapshot-legend';
import { webSystemPrompt } from '../../../../shared/agent/system-prompt';

const source = (path: string): string => readFileSync(path, 'utf8');

/** Every word the snapshot code writes after a control's name: `push('checked')`, `push(\`format=${...}\`)`. */
function annotationMarks(): string[] {
  const code = ['element-states.ts', 'hit-test.ts', 'collect-snapshot.ts'].map((file) => source(`extension/content/perception/${file}`)).join('\n');
  const literal = [...code.matchAll(/\.(?:push|unshift)\('([a-z-]+)'\)/g)].map((m) => m[1] ?? '');
  const ternary = [...code.matchAll(/\.push\(\w+ === '\w+' \? '([a-z]+)' : '([a-z]+)'\)/g)].flatMap((m) => [m[1] ?? '', m[2] ?? '']);
  const keyed = [...code.matchAll(/\.push\(`([a-z]+)=/g)].map((m) => `${m[1] ?? ''}=`);
  return [...new Set([...literal, ...ternary, ...keyed])];
}

/** Every role the snapshot can show: ARIA widget roles, input kinds, and the weak roles it gives by behaviour. */
function roles(): string[] {
  const code = source('extension/content/perception/element-role.ts');
  const quoted = (block: string): string[] => [...block.matchAll(/'([a-z-]+)'/g)].map((m) => m[1] ?? '');
  const widget = quoted(/const WIDGET_ROLES = new Set\(\[([^\]]+)\]\)/.exec(code)?.[1] ?? '');
  const dates = quoted(/const DATE_TIME_TYPES = new Set\(\[([^\]]+)\]\)/.exec(code)?.[1] ?? '');
  // The weak roles given by behaviour, as collect-snapshot writes them: `{ kind: 'weak', role: 'draggable' }`.
  const weak = [...source('extension/content/perception/collect-snapshot.ts').matchAll(/kind: 'weak', role: (?:[^'\n]*\?\? )?'([a-z-]+)'/g)].map((m) => m[1] ?? '');
  // Roles of page structure kept by a control found by its behaviour (a clickable table cell is a cell).
  const structure = quoted(/export const STRUCTURE_ROLES = new Set\(\[([^\]]+)\]\)/.exec(code)?.[1] ?? '');
  expect(structure).toEqual(expect.arrayContaining(['gridcell', 'listitem']));
  expect(weak).toEqual(expect.arrayContaining(['clickable', 'label', 'draggable']));
  return [...widget, ...dates, ...weak, ...structure, 'focusable'];
}

describe('the snapshot legend in the system prompt', () => {
  it('explains every annotation the snapshot writes', () => {
    const marks = annotationMarks();
    expect(marks).toEqual(expect.arrayContaining(['checked', 'covered', 'focused', 'format=', 'value=', 'placeholder=', 'pressed']));
    for (const mark of marks) expect(SNAPSHOT_LEGEND, `the legend does not explain "${mark}"`).toContain(mark);
  });

  it('names every role, the new-element star, the counts above and below, the cut note and the change line', () => {
    const found = roles();
    expect(found.length).toBeGreaterThan(20);
    for (const role of found) expect(SNAPSHOT_LEGEND, `the legend does not name the role "${role}"`).toMatch(new RegExp(`\\b${role}\\b`));
    // The notes the renderer writes, word for word in the legend.
    const render = source('shared/perception/render-snapshot.ts');
    for (const note of ['more elements above; scroll up to see them', 'more elements below; scroll down or use find', '(cut to fit']) {
      expect(render).toContain(note);
      expect(SNAPSHOT_LEGEND).toContain(note);
    }
    for (const mark of ['*[12]', '"Changed: ..."']) expect(SNAPSHOT_LEGEND).toContain(mark);
  });

  it('explains the notes the task adds around the page: a JavaScript dialog over it, and the task\'s downloads', () => {
    const notices = source('extension/background/page/page-notices.ts');
    expect(notices).toContain('Downloads of this task:');
    expect(SNAPSHOT_LEGEND).toContain('"Downloads of this task:"');
    expect(notices).toContain('and is frozen until it is answered');
    expect(SNAPSHOT_LEGEND).toContain('the page is frozen until you answer the dialog with the dialog tool');
  });

  it('explains the marks around a frame of another site, and the tab list', () => {
    const snapshot = source('extension/background/page/tab-snapshot.ts');
    const start = /\[frame from \$\{originLabel\(origin\)\}, another site/.test(snapshot);
    const end = /\[end of frame from \$\{originLabel\(origin\)\}\]/.test(snapshot);
    expect(start && end).toBe(true);
    for (const mark of ['[frame from shop.example, another site', '[end of frame from shop.example]']) expect(SNAPSHOT_LEGEND).toContain(mark);
    const steps = source('shared/agent/step-record.ts');
    expect(steps).toContain("The task's tabs (switch with the tabs tool)");
    expect(SNAPSHOT_LEGEND).toContain('"The task\'s tabs"');
  });

  it('is part of the web system prompt', () => {
    expect(webSystemPrompt({ mode: 'act', placeholders: [], allowedSites: [] })).toContain(SNAPSHOT_LEGEND);
  });
});
