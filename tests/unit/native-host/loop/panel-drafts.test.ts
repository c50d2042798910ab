import { describe, expect, it } from 'vitest';
import { createPanelDrafts, DEFAULT_DRAFT_DEADLINE_MS, draftDeadlineMs } from '../../../../native-host/loop/panel-drafts';
import { DESCRIBE_PANEL_TIMEOUT_MS } from '../../../../extension/ui/loop-describe-box';

/** A model call that answers only when aborted (as the SDKs do), or never when `deaf`. */
const silentModel = (deaf = false) => (signal: AbortSignal) =>
  new Promise<string>((_resolve, reject) => {
    if (!deaf) signal.addEventListener('abort', () => reject(new Error('Request was aborted.')));
  });

describe("the panel's loop drafts", () => {
  it('gives the draft its result when the model answers in time', async () => {
    const drafts = createPanelDrafts(() => 1_000);
    await expect(drafts.run('d1', 'custom/m', () => Promise.resolve('drafted'))).resolves.toBe('drafted');
    expect(drafts.cancel('d1')).toBe(false);
  });

  it('names the model and what to do when the draft passes its own deadline, even from a client that ignores the abort', async () => {
    for (const deaf of [false, true]) {
      const drafts = createPanelDrafts(() => 20);
      const failed = drafts.run('d1', 'anthropic/slow', silentModel(deaf));
      await expect(failed).rejects.toMatchObject({ code: 'timeout' });
      await expect(failed).rejects.toThrow(/^anthropic\/slow did not finish the draft within 0 s\. Try again, choose a faster model in Settings, or write deputy\.loop\.json yourself/);
    }
  });

  it('cancel stops a waiting draft at once with "cancelled", and only that draft', async () => {
    const drafts = createPanelDrafts(() => 60_000);
    const first = drafts.run('d1', 'custom/m', silentModel(true));
    const second = drafts.run('d2', 'custom/m', () => Promise.resolve('other'));
    expect(drafts.cancel('d1')).toBe(true);
    await expect(first).rejects.toMatchObject({ code: 'cancelled', message: 'Drafting was cancelled; nothing was started' });
    await expect(second).resolves.toBe('other');
    expect(drafts.cancel('d1')).toBe(false);
  });

  it('passes on the model error as it is', async () => {
    const drafts = createPanelDrafts(() => 60_000);
    await expect(drafts.run(undefined, 'custom/m', () => Promise.reject(new Error('rejected the API key (401)')))).rejects.toThrow('rejected the API key (401)');
  });

  it('reads DEPUTY_DESCRIBE_TIMEOUT_MS, and the panel waits longer than the host and the background so the host error is the one shown', () => {
    expect(draftDeadlineMs({ DEPUTY_DESCRIBE_TIMEOUT_MS: '5000' })).toBe(5000);
    for (const bad of ['', 'soon', '-1', '1.5']) expect(draftDeadlineMs({ DEPUTY_DESCRIBE_TIMEOUT_MS: bad })).toBe(DEFAULT_DRAFT_DEADLINE_MS);
    expect(DEFAULT_DRAFT_DEADLINE_MS).toBeLessThan(180_000);
    expect(DESCRIBE_PANEL_TIMEOUT_MS).toBeGreaterThan(180_000);
  });
});
