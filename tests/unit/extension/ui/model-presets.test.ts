import { describe, expect, it } from 'vitest';
import { PROVIDER_PRESETS } from '../../../../shared/agent/providers/provider-presets';
import { exampleTasks, MODEL_PRESETS } from '../../../../extension/ui/model-presets';

describe('first-run presets and examples', () => {
  it('fills in the address of each known server and asks for a key exactly where the provider needs one', () => {
    for (const preset of MODEL_PRESETS) {
      if (preset.choice !== 'compatible') continue;
      expect(preset.baseUrl, preset.id).toBe(PROVIDER_PRESETS[preset.compatiblePreset].baseUrl ?? '');
      expect(preset.needsKey, preset.id).toBe(PROVIDER_PRESETS[preset.compatiblePreset].needsKey);
    }
    expect(MODEL_PRESETS.find((p) => p.id === 'openai')?.needsKey).toBe(true);
  });

  it('offers examples that fit the page: a shop gets a cart task, a form a fill-in task that does not submit', () => {
    expect(exampleTasks('https://shop.example/cart')).toContain('Find the cheapest product here and add it to the cart');
    expect(exampleTasks('https://example.org/contact')).toContain('Fill in this form with my details, but do not submit it');
    expect(exampleTasks(undefined)).toEqual([
      'Summarize this page in three bullet points',
      'Find the contact email or support page of this site',
      'List the links on this page that lead to pricing or plans',
    ]);
  });
});
