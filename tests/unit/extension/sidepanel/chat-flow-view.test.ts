import { describe, expect, it } from 'vitest';
import { vendorName } from '../../../../extension/sidepanel/chat-flow-view';

describe('the chat flow names the widget it found', () => {
  it('by its vendor, or in words when only its structure was recognised', () => {
    expect(vendorName('intercom')).toBe('intercom');
    expect(vendorName('generic')).toBe('a support chat (vendor not recognised)');
    expect(vendorName(null)).toBe('a chat widget');
  });
});
