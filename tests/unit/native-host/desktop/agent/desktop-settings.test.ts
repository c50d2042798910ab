import { describe, expect, it } from 'vitest';
import { desktopSettings } from '../../../../../native-host/desktop/agent/desktop-settings';

describe('desktopSettings', () => {
  it('defaults like npm run task: act mode, approvals asked, OpenAI with its key, screenshots always on', () => {
    const settings = desktopSettings(['open', 'the', 'editor'], {}, { OPENAI_API_KEY: 'sk-test' });
    expect(settings).toMatchObject({ task: 'open the editor', mode: 'act', approve: 'ask', dryRun: false, width: 1280, quality: 70, runsDir: 'runs' });
    expect(settings.provider).toEqual({ preset: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test', vision: true });
  });

  it('picks Anthropic when only its key is set, and a local server from --base-url', () => {
    expect(desktopSettings(['x'], {}, { ANTHROPIC_API_KEY: 'a' }).provider).toMatchObject({ preset: 'anthropic', apiKey: 'a' });
    expect(desktopSettings(['x'], { baseUrl: 'http://localhost:11434/v1', model: 'llava' }, {}).provider).toEqual({
      preset: 'custom',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llava',
      vision: true,
    });
  });

  it('passes mode, approvals, dry run, display and sizes through', () => {
    const settings = desktopSettings(['x'], { mode: 'ask', approve: 'none', dryRun: true, display: '1', width: '1024', quality: '60', steps: '12' }, { DEPUTY_API_KEY: 'k' });
    expect(settings).toMatchObject({ mode: 'ask', approve: 'none', dryRun: true, displayId: '1', width: 1024, quality: 60, maxSteps: 12 });
  });

  it('takes a cost cap in dollars, and --resume of a run folder instead of a task', () => {
    expect(desktopSettings(['x'], { maxCost: '$0.50' }, { DEPUTY_API_KEY: 'k' }).maxCostUsd).toBe(0.5);
    expect(desktopSettings([], { resume: 'runs/r1', maxCost: '2' }, { DEPUTY_API_KEY: 'k' })).toMatchObject({ resume: 'runs/r1', maxCostUsd: 2, task: '' });
    expect(() => desktopSettings(['x'], { resume: 'runs/r1' }, { DEPUTY_API_KEY: 'k' })).toThrow(/leave the task out/);
    for (const bad of ['0', '-1', 'ten', '1001', ''])
      expect(() => desktopSettings(['x'], { maxCost: bad }, { DEPUTY_API_KEY: 'k' })).toThrow(`--max-cost takes dollars above 0 and up to 1000 (for example --max-cost 0.50), not "${bad}".`);
  });

  it('says what to do about every bad input', () => {
    expect(() => desktopSettings([], {}, { OPENAI_API_KEY: 'k' })).toThrow(/Say what to do/);
    expect(() => desktopSettings(['x'], {}, {})).toThrow(/No API key for openai: set OPENAI_API_KEY \(or DEPUTY_API_KEY\)/);
    expect(() => desktopSettings(['x'], { provider: 'openai-compatible' }, {})).toThrow(/needs --base-url/);
    expect(() => desktopSettings(['x'], { baseUrl: 'ftp://x', model: 'm' }, {})).toThrow(/not an http\(s\) address/);
    expect(() => desktopSettings(['x'], { quality: '500' }, { OPENAI_API_KEY: 'k' })).toThrow(/--quality must be a whole number from 10 to 100/);
    expect(() => desktopSettings(['x'], { mode: 'yolo' }, { OPENAI_API_KEY: 'k' })).toThrow(/--mode must be ask or act/);
  });
});
