import { describe, expect, it } from 'vitest';
import type { ActionEffect } from '../../../../shared/agent/action-effect';
import { borrowedAuthority } from '../../../../shared/agent/frame-authority';
import type { RiskClass } from '../../../../shared/agent/risk-class';

const PAGE = 'https://shop.test/checkout/address';

interface Made {
  form?: { method: string; action: string; fields?: string[] };
  submits?: boolean;
  link?: string;
  tag?: string;
  type?: string;
}

function effect(frameUrl: string, made: Made): ActionEffect {
  const { form, link } = made;
  return {
    frameUrl,
    element: { tag: made.tag ?? 'BUTTON', type: made.type ?? 'submit', text: 'Save', danger: false },
    ...(link ? { link: { url: link, newWindow: false } } : {}),
    ...(form ? { form: { action: form.action, method: form.method, newWindow: false, submitLabel: 'Save', fields: (form.fields ?? ['note']).map((name) => ({ name, label: name, type: 'text', autocomplete: '', filled: false })) } } : {}),
    submits: form ? (made.submits ?? true) : false,
    context: '',
  };
}

interface Action {
  name: string;
  tool: string;
  role: string;
  changes: boolean;
  fills?: boolean;
  classes: RiskClass[];
  effect?: Made;
  field?: string;
  url?: string;
  noElement?: boolean;
}

// Each kind of action on the page (or inside the frame), generated from what an action can do: post, read by GET,
// follow a link, run the page's script, fill a field, choose in place, press a key, go to an address.
const ACTIONS: Action[] = [
  { name: 'a POST to a neutral address', tool: 'click', role: 'button', changes: true, classes: ['submit'], effect: { form: { method: 'post', action: 'https://shop.test/update' } } },
  { name: 'Enter in a field of a POST form', tool: 'press', role: 'textbox', changes: true, classes: ['submit'], effect: { form: { method: 'post', action: 'https://shop.test/api/v2/sync' }, tag: 'INPUT', type: 'text' } },
  { name: 'a GET search', tool: 'click', role: 'button', changes: false, classes: ['submit'], effect: { form: { method: 'get', action: 'https://shop.test/search' } } },
  { name: 'a GET to the account area', tool: 'click', role: 'button', changes: true, classes: [], effect: { form: { method: 'get', action: 'https://shop.test/account/email' } } },
  { name: 'a same-site link', tool: 'click', role: 'link', changes: false, classes: ['navigate'], effect: { link: 'https://shop.test/mugs', tag: 'A', type: '' } },
  { name: 'a link into the account area', tool: 'click', role: 'link', changes: true, classes: ['navigate'], effect: { link: 'https://shop.test/account/addresses', tag: 'A', type: '' } },
  { name: 'a link (no facts)', tool: 'click', role: 'link', changes: false, classes: ['navigate'] },
  { name: 'a button whose script decides what it sends', tool: 'click', role: 'button', changes: true, classes: ['act'], effect: { type: 'button' } },
  { name: 'a button in a form that does not submit it', tool: 'click', role: 'button', changes: true, classes: ['act'], effect: { form: { method: 'post', action: 'https://shop.test/x' }, submits: false, type: 'button' } },
  { name: 'a position click on such a button', tool: 'click_at', role: 'button', changes: true, classes: ['act'], effect: { type: 'button' } },
  { name: 'checking a box in a form', tool: 'check', role: 'checkbox', changes: false, classes: ['act'], effect: { form: { method: 'post', action: 'https://shop.test/x' }, submits: false, tag: 'INPUT', type: 'checkbox' } },
  { name: 'a payment click', tool: 'click', role: 'button', changes: true, classes: ['money'] },
  { name: 'Enter with nothing focused that Deputy knows', tool: 'press', role: '', changes: true, classes: ['submit'], noElement: true },
  { name: 'Page Down', tool: 'press', role: '', changes: false, classes: ['act'], noElement: true },
  { name: 'typing a delivery address', tool: 'type', role: 'textbox', changes: true, fills: true, classes: ['act'], field: 'Delivery address' },
  { name: 'choosing a country', tool: 'select', role: 'combobox', changes: true, fills: true, classes: ['act'], field: 'Country' },
  { name: 'typing a search', tool: 'type', role: 'textbox', changes: false, fills: true, classes: ['act'], field: 'Search' },
  { name: 'scrolling', tool: 'scroll', role: '', changes: false, classes: ['act'], noElement: true },
  { name: 'going to the account area', tool: 'navigate', role: '', changes: true, classes: ['navigate'], noElement: true, url: 'https://shop.test/account/address/delete?id=1' },
  { name: 'going to a product', tool: 'navigate', role: '', changes: false, classes: ['navigate'], noElement: true, url: 'https://shop.test/mugs' },
];
// Where the frame's words were shown: nowhere, by a same-origin frame, by another site's now, only at an earlier step.
const FRAMES: { name: string; now?: string[]; earlier?: string[]; foreign: string[] }[] = [
  { name: 'no frame', foreign: [] },
  { name: 'a same-origin frame', now: ['https://shop.test'], earlier: ['https://shop.test'], foreign: [] },
  { name: 'an ad frame of evil.test', now: ['https://evil.test'], foreign: ['evil.test'] },
  { name: 'two frames', now: ['https://shop.test', 'http://ads.evil.test:8080'], foreign: ['ads.evil.test:8080'] },
  { name: 'an ad frame shown at an earlier step only', earlier: ['https://evil.test'], foreign: ['evil.test'] },
];

describe('frames cannot borrow the page’s authority', () => {
  for (const action of ACTIONS) {
    for (const frame of FRAMES) {
      for (const where of ['page', 'frame'] as const) {
        if (where === 'frame' && action.noElement) continue;
        const asks = action.changes && frame.foreign.length > 0 && where === 'page';
        it(`${asks ? 'asks' : 'does not ask'}: ${action.name} on the ${where}, after ${frame.name}`, () => {
          const frameUrl = where === 'page' ? PAGE : 'https://evil.test/ad';
          const reason = borrowedAuthority({
            tool: action.tool,
            pageUrl: PAGE,
            frameOrigins: frame.now,
            earlierFrameOrigins: frame.earlier,
            element: action.noElement ? undefined : { ref: 3, role: action.role, name: action.field ?? 'Save', ...(where === 'frame' ? { origin: 'https://evil.test' } : {}) },
            effect: action.effect ? effect(frameUrl, action.effect) : undefined,
            classes: new Set(action.classes),
            fills: action.fills ?? false,
            url: action.url,
          });
          if (!asks) expect(reason).toBeNull();
          else {
            expect(reason).not.toBeNull();
            for (const origin of frame.foreign) expect(reason).toContain(origin);
            expect(reason).toContain(frame.now?.some((o) => o !== 'https://shop.test') ? 'the page shows words from a frame of' : 'earlier in this task');
          }
        });
      }
    }
  }
});
