import { describe, expect, it } from 'vitest';
import { refindElement, type Candidate } from '../../../../../extension/content/perception/refind-element';

// Plain objects stand in for elements: the matching looks only at what was recorded.
const candidate = (ref: number, name: string, context: string, role = 'button'): Candidate => ({ el: {} as Element, ref, role, name, context });

describe('refindElement', () => {
  it('finds a re-rendered element by role, name and row', () => {
    const current = [candidate(10, 'Delete', 'Alpha Delete'), candidate(11, 'Delete', 'Beta Delete')];
    const found = refindElement({ role: 'button', name: 'Delete', context: 'Beta Delete' }, current);
    expect(found.found?.ref).toBe(11);
  });

  it('does not take the only remaining look-alike from another row', () => {
    const found = refindElement({ role: 'button', name: 'Delete', context: 'Gamma Delete' }, [candidate(10, 'Delete', 'Alpha Delete')]);
    expect(found.found).toBeNull();
    expect(found.found === null && found.candidates.map((c) => c.ref)).toEqual([10]);
  });

  it('refuses to choose between twins whose rows read the same', () => {
    const found = refindElement({ role: 'button', name: 'Same', context: 'Offer' }, [candidate(1, 'Same', 'Offer!'), candidate(2, 'Same', 'Offer!')]);
    expect(found.found).toBeNull();
  });

  it('accepts a row whose text changed with the page state but still mostly agrees', () => {
    const before = 'Profile Name Bio Plan Free Pro Terms Hello / / free / not agreed';
    const after = 'Profile Name Bio Plan Free Pro Terms Hello Ada / / free / not agreed';
    expect(refindElement({ role: 'button', name: 'Save', context: before }, [candidate(9, 'Save', after)]).found?.ref).toBe(9);
  });

  it('without a recorded row, acts only on a unique role and name, and lists close candidates otherwise', () => {
    expect(refindElement({ role: 'textbox', name: 'Email' }, [candidate(3, 'Email', '', 'textbox')]).found?.ref).toBe(3);
    const none = refindElement({ role: 'textbox', name: 'Email' }, [candidate(4, 'E-mail address', '', 'textbox'), candidate(5, 'Search', '', 'button')]);
    expect(none.found).toBeNull();
    expect(none.found === null && none.candidates[0]?.ref).toBe(4);
  });
});
