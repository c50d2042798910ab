/**
 * Why each MiniWoB++ family without a scripted solution has none, as the eval reports it. Two kinds: pages whose raw
 * reward cannot reach 1 through any browser input (the eval counts a page solved only at a raw reward of 1), and pages
 * that need a tool or a reading Deputy does not have yet. A family given a solution leaves this list (a unit test
 * checks both ways, so the list cannot go stale).
 */
const OFF_GRID = 'a raw reward of 1 needs a click at distance 0 from a point that is not on the pixel grid; Chromium delivers a click at a fractional position as a whole pixel (measured: x 100.5 arrives as pageX 100), so the best click scores just under 1';

export const UNSOLVED_WHY: Readonly<Record<string, string>> = {
  'circle-center': `cannot reach 1: ${OFF_GRID}`,
  'find-midpoint': `cannot reach 1: ${OFF_GRID}`,
  'bisect-angle': `cannot reach 1: ${OFF_GRID}`,
  'right-angle': `cannot reach 1: ${OFF_GRID}`,
  'chase-circle': 'cannot reach 1: the reward is 1 only with no time at all outside a circle that moves from the first frame, before any input can follow it',
  'hover-shape': 'cannot reach 1: the page never ends the episode with a reward (its core.continuousReward call is commented out)',
  'moving-items': 'cannot reach 1: ten moving targets must be hit within 9.9 s, faster than a model can be sent one page per target',
  'simon-says': 'not yet: the sequence to repeat is shown as 250 ms flashes, and no tool watches a page change over time',
  'count-shape': 'not yet: the shapes\' colours and sizes are only in the picture; no solution reads them from the screenshot',
  'drag-cube': 'not yet: nothing the model is sent says which face of the cube is in front',
};
