import { describe, expect, it } from 'vitest';
import { StepRecord } from '../../../../shared/agent/agent-state';
import { observationSummary } from '../../../../shared/agent/build-prompt';

const step = (index: number, url: string, title: string, kind?: 'shell'): StepRecord =>
  StepRecord.parse({ index, startedAt: 0, observation: { ...(kind ? { kind } : {}), url, title, hash: `h${index}`, chars: 9000, text: null }, reply: null });

describe('observationSummary', () => {
  it('names where the agent was, without the page text', () => {
    expect(observationSummary(step(3, 'https://shop.example/p/2', 'Water bottle 2'))).toBe('[Step 4 page omitted: "Water bottle 2" https://shop.example/p/2]');
    expect(observationSummary(step(0, 'shell://local', 'bash in /repo', 'shell'))).toBe('[Step 1 shell omitted: bash in /repo]');
  });

  it('points to the step before when the address and title did not change, and repeats them when they did', () => {
    const before = step(3, 'https://shop.example/p/2', 'Water bottle 2');
    expect(observationSummary(step(4, 'https://shop.example/p/2', 'Water bottle 2'), before)).toBe('[Step 5: same page as step 4, omitted]');
    expect(observationSummary(step(4, 'https://shop.example/p/2', 'Water bottle 2 (details)'), before)).toBe(
      '[Step 5 page omitted: "Water bottle 2 (details)" https://shop.example/p/2]',
    );
  });
});
