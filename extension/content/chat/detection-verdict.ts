import type { ChatDetection, Evidence, FrameProbe } from '../../../shared/protocol';
import type { ChatProfile } from './chat-profile';
import { confidenceOf, globalsEvidence } from './profile-match';

/** Below this a vendor is only "seen", not detected. */
export const VENDOR_THRESHOLD = 0.5;
/**
 * The structural fallback needs a composer and a message list plus two more signs (a send control, chat words, a
 * log region, a box floating in the corner): one sign alone also fits feedback forms and comment boxes.
 */
export const GENERIC_THRESHOLD = 0.65;

export interface FrameReport {
  frameId: number;
  probe: FrameProbe;
}

export interface GlobalsReport {
  frameId: number;
  found: string[];
}

interface Candidate {
  vendor: string;
  evidence: (Evidence & { frameId: number })[];
  uiFrames: number[];
  childFrames: number[];
  markerFrames: number[];
}

/**
 * Decides which chat a tab holds from what every frame reported: the strongest vendor, and the frame where its UI
 * lives (a frame with the vendor's UI, preferring one its iframe markers point to; else the frame with its markers,
 * where the launcher is, until the widget opens). With no vendor, the structural fallback's best frame.
 */
export function decideDetection(
  profiles: readonly ChatProfile[],
  frames: readonly FrameReport[],
  globals: readonly GlobalsReport[],
): ChatDetection {
  const candidates = new Map<string, Candidate>();
  const candidate = (vendor: string): Candidate => {
    let found = candidates.get(vendor);
    if (!found) {
      found = { vendor, evidence: [], uiFrames: [], childFrames: [], markerFrames: [] };
      candidates.set(vendor, found);
    }
    return found;
  };
  for (const { frameId, probe } of frames) {
    for (const hit of probe.vendors) {
      const entry = candidate(hit.vendor);
      entry.evidence.push(...hit.evidence.map((item) => ({ ...item, frameId })));
      if (hit.ui) entry.uiFrames.push(frameId);
      entry.childFrames.push(...hit.childFrames);
      if (hit.evidence.some((item) => item.layer !== 'structure')) entry.markerFrames.push(frameId);
    }
  }
  for (const { frameId, found } of globals) {
    for (const [vendor, evidence] of globalsEvidence(profiles, found)) {
      const entry = candidate(vendor);
      entry.evidence.push(...evidence.map((item) => ({ ...item, frameId })));
      entry.markerFrames.push(frameId);
    }
  }
  const ranked = [...candidates.values()]
    .map((entry) => ({ entry, confidence: confidenceOf(entry.evidence) }))
    .sort((a, b) => b.confidence - a.confidence || b.entry.uiFrames.length - a.entry.uiFrames.length);
  const checked = { frames: frames.length, profiles: profiles.length, globals: globals.length };
  const urlOf = (frameId: number | null): string | null =>
    frameId === null ? null : (frames.find((report) => report.frameId === frameId)?.probe.url ?? null);
  const best = ranked[0];
  const alternatives = ranked.slice(1).map(({ entry, confidence }) => ({ vendor: entry.vendor, confidence }));

  if (best && best.confidence >= VENDOR_THRESHOLD) {
    const { entry } = best;
    const frameId = chooseFrame(entry, frames);
    const name = profiles.find((profile) => profile.id === entry.vendor)?.name ?? entry.vendor;
    return {
      found: true,
      vendor: entry.vendor,
      frameId,
      frameUrl: urlOf(frameId),
      confidence: best.confidence,
      evidence: entry.evidence,
      alternatives,
      checked,
      summary: `${name} chat found in ${frameId === 0 ? 'the top frame' : `frame ${frameId} (${urlOf(frameId) ?? 'unknown url'})`}, confidence ${best.confidence}`,
    };
  }

  const generic = frames
    .filter((report) => report.probe.generic !== null)
    .sort((a, b) => (b.probe.generic?.score ?? 0) - (a.probe.generic?.score ?? 0))[0];
  const genericScore = generic?.probe.generic?.score ?? 0;
  if (generic && genericScore >= GENERIC_THRESHOLD) {
    return {
      found: true,
      vendor: 'generic',
      frameId: generic.frameId,
      frameUrl: generic.probe.url,
      confidence: Math.min(1, genericScore),
      evidence: (generic.probe.generic?.reasons ?? []).map((detail) => ({ layer: 'structure' as const, detail, frameId: generic.frameId })),
      alternatives,
      checked,
      summary: `A chat of an unknown vendor found by its structure in ${generic.frameId === 0 ? 'the top frame' : `frame ${generic.frameId} (${generic.probe.url})`}, confidence ${Math.min(1, genericScore)}`,
    };
  }

  const seen = best ? ` The strongest hint was ${best.entry.vendor} at confidence ${best.confidence}, too weak to act on.` : '';
  return {
    found: false,
    vendor: null,
    frameId: null,
    frameUrl: null,
    confidence: best?.confidence ?? 0,
    evidence: best?.entry.evidence ?? [],
    alternatives: ranked.map(({ entry, confidence }) => ({ vendor: entry.vendor, confidence })),
    checked,
    summary:
      `No chat widget found on this page: checked ${frames.length} frame${frames.length === 1 ? '' : 's'} for ` +
      `${profiles.length} vendors (page globals, script hosts, page and frame markers) and for a chat's structure ` +
      `(a message list beside a composer).${seen} If the chat opens from a button, open it and detect again.`,
  };
}

function chooseFrame(entry: Candidate, frames: readonly FrameReport[]): number {
  const inChild = entry.uiFrames.find((frameId) => entry.childFrames.includes(frameId));
  if (inChild !== undefined) return inChild;
  const ui = entry.uiFrames[0];
  if (ui !== undefined) return ui;
  // A child frame the vendor's markers point to that holds a chat's structure, though not this profile's markers.
  const structural = entry.childFrames.find((frameId) => {
    const report = frames.find((candidate) => candidate.frameId === frameId);
    return (report?.probe.generic?.score ?? 0) >= GENERIC_THRESHOLD;
  });
  if (structural !== undefined) return structural;
  return entry.markerFrames.includes(0) ? 0 : (entry.markerFrames[0] ?? 0);
}
