import type { Observation, ObservedElement } from './environment';

/**
 * Element banning for a support case (issue 31, item 5): an element that led nowhere — clicked with no effect on the
 * page, or clicked to find the chat and no chat came — is not offered to the model again in that case. Elements are
 * known by what they are (role, name, frame), not by their number, which changes with every snapshot. A banned
 * element is taken out of the snapshot's text and its element list, so the model cannot pick its number again; one
 * line at the end says what was hidden and why, so the model does not go looking for it.
 */
export interface ElementBans {
  /** Bans an element for the rest of the case. */
  ban(element: Pick<ObservedElement, 'role' | 'name' | 'frame'>, why: string): void;
  /** The observation without the banned elements, and a line naming them. */
  apply<T extends Observation>(observation: T): T;
  /** What is banned, in words (for the case file and tests). */
  list(): string[];
}

const identity = (element: Pick<ObservedElement, 'role' | 'name' | 'frame'>): string => `${element.frame ?? 0}|${element.role}|${element.name.replace(/\s+/g, ' ').trim().toLowerCase()}`;

export function createElementBans(): ElementBans {
  const banned = new Map<string, string>();
  return {
    ban(element, why) {
      // An unnamed element cannot be told apart from its neighbours: banning it would hide the wrong ones.
      if (element.name.trim() === '') return;
      const key = identity(element);
      if (!banned.has(key)) banned.set(key, `${element.role} "${element.name.slice(0, 60)}" (${why})`);
    },
    apply(observation) {
      if (banned.size === 0) return observation;
      const elements = observation.elements ?? [];
      const hidden = new Set(elements.filter((element) => banned.has(identity(element))).map((element) => element.ref));
      if (hidden.size === 0) return observation;
      const text = observation.text
        .split('\n')
        .filter((line) => {
          // A line may mark its element as new since the last look (`*[12] link …`, see render-snapshot).
          const ref = /^\s*(?:-\s*)?\*?\[(\d+)\]/.exec(line)?.[1];
          return ref === undefined || !hidden.has(Number(ref));
        })
        .join('\n');
      const names = [...new Set(elements.filter((element) => hidden.has(element.ref)).map((element) => banned.get(identity(element))!))];
      return {
        ...observation,
        elements: elements.filter((element) => !hidden.has(element.ref)),
        text: `${text}\n[Hidden in this case because they led nowhere: ${names.join('; ')}]`,
      };
    },
    list: () => [...banned.values()],
  };
}
