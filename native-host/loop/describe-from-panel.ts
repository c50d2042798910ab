import { realpathSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { LoopDraftField } from '../../shared/protocol/loop-protocol';
import { draftLoop } from './describe-loop';
import { panelDrafts, type PanelDrafts } from './panel-drafts';
import { resolveRepo } from './load-loop-config';
import { draftFields } from './loop-draft-fields';
import { researchModelFromSettings } from './research-model';

/**
 * The side panel's "Describe a loop": the model saved in the extension's Settings (sent by the background, held in
 * memory only) drafts the loop for the repository the panel names. The panel shows the fields and starts the
 * definition with loop.start only when the user presses Start.
 */
export async function describeFromPanel(
  params: { description: string; repo: string; provider?: unknown; draftId?: string },
  drafts: PanelDrafts = panelDrafts,
): Promise<{ model: string; definition: Record<string, unknown>; fields: LoopDraftField[]; costUsd?: number }> {
  const repo = realpathSync(resolveRepo(params.repo, process.cwd()));
  const model = researchModelFromSettings({ enabled: true }, params.provider);
  if ('unavailable' in model) throw new AppError('bad_request', `Drafting a loop needs a model: ${model.unavailable.replace(/^Research when stuck was skipped: /, '')}`);
  const draft = await drafts.run(params.draftId, `${model.provider.label}/${model.provider.model}`, (signal) => draftLoop(params.description, repo, model.provider, { signal }));
  return { model: draft.model, definition: draft.definition, fields: draftFields(draft.definition), ...(draft.costUsd !== undefined ? { costUsd: draft.costUsd } : {}) };
}
