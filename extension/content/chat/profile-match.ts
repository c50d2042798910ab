import type { Evidence } from '../../../shared/protocol';
import type { ChatProfile } from './chat-profile';

/** How much each layer of evidence says on its own; independent layers add up (see `confidenceOf`). */
export const EVIDENCE_WEIGHT: Record<Evidence['layer'], number> = {
  global: 0.6,
  script: 0.5,
  marker: 0.5,
  frame: 0.5,
  structure: 0.4,
};

/** What a frame shows, as the matcher needs it: a selector test and the hosts its scripts load from. */
export interface FrameFacts {
  has(selector: string): boolean;
  scriptHosts: readonly string[];
}

/** `pattern` is a host (`widget.intercom.io`, also matching its subdomains) or a suffix starting with a dot. */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase();
  const p = pattern.toLowerCase();
  if (p.startsWith('.')) return h.endsWith(p) || h === p.slice(1);
  return h === p || h.endsWith(`.${p}`);
}

/** The evidence one frame holds for one vendor, before page globals (which the background reads) are added. */
export function matchProfile(profile: ChatProfile, facts: FrameFacts): Evidence[] {
  const evidence: Evidence[] = [];
  for (const host of facts.scriptHosts) {
    const pattern = profile.scriptHosts.find((candidate) => hostMatches(host, candidate));
    if (pattern) evidence.push({ layer: 'script', detail: `script from ${host}` });
  }
  for (const selector of profile.markers) if (facts.has(selector)) evidence.push({ layer: 'marker', detail: selector });
  for (const selector of profile.frames) if (facts.has(selector)) evidence.push({ layer: 'frame', detail: selector });
  for (const selector of profile.uiMarkers) if (facts.has(selector)) evidence.push({ layer: 'structure', detail: selector });
  return dedupe(evidence);
}

/**
 * Confidence from several layers: each layer counts once (two markers are not twice the proof), and layers combine
 * as independent signals, 1 - Π(1 - w), so a global plus a script host plus a container is near certain.
 */
export function confidenceOf(evidence: readonly Pick<Evidence, 'layer'>[]): number {
  const layers = new Set(evidence.map((item) => item.layer));
  let doubt = 1;
  for (const layer of layers) doubt *= 1 - EVIDENCE_WEIGHT[layer];
  return Math.round((1 - doubt) * 1000) / 1000;
}

/** The vendors a list of found page globals points to, with the globals as evidence. */
export function globalsEvidence(profiles: readonly ChatProfile[], found: readonly string[]): Map<string, Evidence[]> {
  const byVendor = new Map<string, Evidence[]>();
  for (const profile of profiles) {
    const hits = profile.globals.filter((path) => found.includes(path));
    if (hits.length > 0) byVendor.set(profile.id, hits.map((path) => ({ layer: 'global', detail: `window.${path}` })));
  }
  return byVendor;
}

/** Every distinct global path the profiles name, for the one MAIN-world read per frame. */
export function allGlobalPaths(profiles: readonly ChatProfile[]): string[] {
  return [...new Set(profiles.flatMap((profile) => profile.globals))];
}

function dedupe(evidence: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return evidence.filter((item) => {
    const key = `${item.layer}:${item.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
