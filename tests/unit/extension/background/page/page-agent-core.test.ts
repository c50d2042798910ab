import { describe, expect, it } from 'vitest';
import { label } from '../../../../../extension/background/page/page-agent-core';

describe('label', () => {
  it('names an element as the snapshot line does: its name quoted, or unnamed when it has none', () => {
    expect(label(4, { role: 'button', name: 'Save' })).toBe('[4] button "Save"');
    expect(label(5, { role: 'clickable', name: '' })).toBe('[5] clickable unnamed');
  });
});
