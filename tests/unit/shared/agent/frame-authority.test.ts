import { describe, expect, it } from 'vitest';
import type { ActionEffect } from '../../../../shared/agent/action-effect';
import { borrowedAuthority } from '../../../../shared/agent/frame-authority';
import type { RiskClass } from '../../../../shared/agent/risk-class';

const PAGE = 'https://shop.test/checkout/address';

function effect(frameUrl: string, form?: { method: string; action: string; fields?: string[] }, submits = true): ActionEffect {
  return {
    frameUrl,
    element: { tag: 'BUTTON', type: 'submit', text: 'Save' },
    ...(form ? { form: { action: form.action, method: form.method, newWindow: false, submitLabel: 'Save', fields: (form.fields ?? ['note']).map((name) => ({ name, label: name, type: 'text', autocomplete: '' })) } } : {}),
    submits: form ? submits : false,
    context: '',
  } as ActionEffect;
}

// Each action, on the page or inside the frame, after words from no frame, a same-origin frame or another site's.
const ACTIONS: { name: string; changes: boolean; fills: boolean; classes: RiskClass[]; inFrame?: boolean; make: (frameUrl: string) => ActionEffect | undefined; field?: string }[] = [
  { name: 'a POST to a neutral address', changes: true, fills: false, classes: ['submit'], make: (u) => effect(u, { method: 'post', action: 'https://shop.test/update' }) },
  { name: 'a GET search', changes: false, fills: false, classes: [], make: (u) => effect(u, { method: 'get', action: 'https://shop.test/search' }) },
  { name: 'a GET to the account area', changes: true, fills: false, classes: [], make: (u) => effect(u, { method: 'get', action: 'https://shop.test/account/email' }) },
  { name: 'a link', changes: false, fills: false, classes: ['navigate'], make: () => undefined },
  { name: 'a payment click', changes: true, fills: false, classes: ['money'], make: () => undefined },
  { name: 'typing a delivery address', changes: true, fills: true, classes: ['act'], make: () => undefined, field: 'Delivery address' },
  { name: 'typing a search', changes: false, fills: true, classes: ['act'], make: () => undefined, field: 'Search' },
];
const FRAMES = [
  { name: 'no frame', origins: undefined, foreign: false },
  { name: 'a same-origin frame', origins: ['https://shop.test'], foreign: false },
  { name: 'an ad frame of evil.test', origins: ['https://evil.test'], foreign: true },
  { name: 'two frames', origins: ['https://shop.test', 'http://ads.evil.test:8080'], foreign: true },
];

describe('frames cannot borrow the page’s authority', () => {
  for (const action of ACTIONS) {
    for (const frame of FRAMES) {
      for (const where of ['page', 'frame'] as const) {
        const asks = action.changes && frame.foreign && where === 'page';
        it(`${asks ? 'asks' : 'does not ask'}: ${action.name} on the ${where}, after ${frame.name}`, () => {
          const frameUrl = where === 'page' ? PAGE : 'https://evil.test/ad';
          const reason = borrowedAuthority({
            pageUrl: PAGE,
            frameOrigins: frame.origins,
            element: { ref: 3, role: 'textbox', name: action.field ?? 'Save', ...(where === 'frame' ? { origin: 'https://evil.test' } : {}) },
            effect: action.make(frameUrl),
            classes: new Set(action.classes),
            fills: action.fills,
          });
          if (!asks) expect(reason).toBeNull();
          else for (const origin of frame.origins ?? []) if (origin !== 'https://shop.test') expect(reason).toContain(origin.replace(/^https:\/\//, ''));
        });
      }
    }
  }
});
