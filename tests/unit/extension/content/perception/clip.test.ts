import { describe, expect, it } from 'vitest';
import { clip } from '../../../../../extension/content/perception/accessible-name';

describe('clipping page text to length', () => {
  it('cuts ordinary text with an ellipsis', () => {
    expect(clip('a'.repeat(100), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(clip('short', 10)).toBe('short');
  });

  it('never cuts a secret in two, so the background redacts it whole before anything leaves', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefgh';
    const text = `Your new API key is ready. Copy it now, it is shown only once: ${key} and keep it safe.`;
    const clipped = clip(text, 80);
    expect(clipped).toContain(key);
    expect(clipped.endsWith('…')).toBe(true);
    const card = clip(`${'x'.repeat(70)} 4111 1111 1111 1111 paid`, 80);
    expect(card).toContain('4111 1111 1111 1111');
  });
});
