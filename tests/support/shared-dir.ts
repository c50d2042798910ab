import { sharedMissing, sharedPath } from '../../scripts/lib/shared-dir';

export { SHARED_DIR, sharedMissing, sharedPath } from '../../scripts/lib/shared-dir';

/** What a test file needs from the shared folder beside the checkout, and whether it is there. */
export interface SharedNeed {
  /** The absolute path of the needed folder or file. */
  path: string;
  /** Why it cannot be used (it names the missing folder), or null when it is there. */
  missing: string | null;
  /** A describe/it title, with "(skipped: <reason>)" appended when the folder is missing. */
  title(name: string): string;
}

/**
 * The one way a test reaches `../shared`: `const corpus = needShared('corpus/pages')`, then
 * `describe.skipIf(corpus.missing !== null)(corpus.title('...'), ...)`. In a user's clone the tests skip and the
 * report names the folder they need; on the team's machines and in CI they run.
 */
export function needShared(relative: string): SharedNeed {
  const missing = sharedMissing(relative);
  return {
    path: sharedPath(...relative.split('/')),
    missing,
    title: (name) => (missing === null ? name : `${name} (skipped: ${missing})`),
  };
}
