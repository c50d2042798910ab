import type { ActionEffect } from './action-effect';
import type { Classification } from './gate-types';
import { readableLabel } from './label-text';
import { type RiskFindings, wordRisks } from './risk-signals';
import { type ApprovedScope, matchesAny, originLabel, originOf, scopeText } from './site-list';

/** The tools that let go of what they carry somewhere else on the page: a drag, by element or by position. */
export const DROP_TOOLS: ReadonlySet<string> = new Set(['drag', 'drag_at']);

interface DropContext {
  /** The origin the drag starts in (the dragged element's frame, else the page). */
  from: string | null;
  approved: (url: string) => boolean;
  scope: ApprovedScope;
  deniedSites: readonly string[];
}

/**
 * Judges where a drag lets go, as the start is judged: a drag carries what it picks up (a selection, a field's text, a
 * file, an item) to the drop target, whose page script then has it and decides where it goes. A drop on a denied site
 * is refused; a drop into a frame outside the approved sites asks, naming it; a drop into another site's frame than
 * the one the drag starts in asks even when both are approved (what it carries changes hands); and the drop target's
 * own words are read as a control's label would be ("Drop here to confirm the $499 order").
 */
export function judgeDrop(drop: ActionEffect, context: DropContext, findings: RiskFindings, mustAsk: string[], result: Partial<Classification>): void {
  const origin = originOf(drop.frameUrl);
  wordRisks(readableLabel(drop.element.text), findings);
  if (origin === null) return;
  if (matchesAny(drop.frameUrl, context.deniedSites)) {
    result.forbidden = `it drops what it drags onto ${originLabel(origin)}, a site Deputy must not act on`;
    return;
  }
  if (!context.approved(drop.frameUrl)) {
    result.leavesApprovedSites = true;
    result.destination = origin;
    findings.reasons.push(`it drops what it drags into a frame from ${originLabel(origin)}, outside the approved sites (${scopeText(context.scope) || 'none yet'})`);
  } else if (context.from !== null && origin !== context.from) {
    mustAsk.push(`it drags from ${originLabel(context.from)} and drops into a frame from ${originLabel(origin)}, which gets what it carries`);
  }
}
