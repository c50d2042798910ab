import { AppError } from '../errors';
import { Routine, type RoutineStep } from './routine';

/** The hash of a routine's content: SHA-256 over its JSON with keys in a fixed order, as hex. */
export async function routineHash(routine: Routine): Promise<string> {
  const bytes = new TextEncoder().encode(canonical(routine));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The routine as a readable file: the sites it acts on first (what a person should look at before running someone
 * else's routine), then its hash, then the rest. Secret values never reach it: steps hold only their placeholders,
 * and a secret parameter has no example.
 */
export async function exportRoutine(routine: Routine): Promise<string> {
  const clean: Routine = { ...routine, params: routine.params.map((p) => (p.kind === 'secret' ? { name: p.name, kind: p.kind } : p)) };
  const { sites, ...rest } = clean;
  return `${JSON.stringify({ sites, sha256: await routineHash(clean), ...rest }, null, 2)}\n`;
}

export interface ImportedRoutine {
  routine: Routine;
  /** The file's content no longer matches the hash it carries (or it carries none): someone changed it. */
  edited: boolean;
  /** Why it counts as edited, in words, for the panel and the CLI. */
  note: string | null;
}

/** Reads a routine file. Bad input gets an error that says what is wrong and what to do. */
export async function importRoutine(text: string): Promise<ImportedRoutine> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `This is not a routine file (it is not JSON: ${error instanceof Error ? error.message : String(error)}). Export a routine from Deputy and import that file.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new AppError('bad_request', 'This is not a routine file: it should be a JSON object with "format": "deputy-routine".');
  const { sha256, ...rest } = json as Record<string, unknown>;
  const parsed = Routine.safeParse(rest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('bad_request', `This routine file cannot be used: ${issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'it does not have the shape of a routine'}. Export it again from Deputy.`);
  }
  const routine = withSitesOfSteps(parsed.data);
  const hash = await routineHash(parsed.data);
  if (typeof sha256 !== 'string') return { routine, edited: true, note: 'The file has no hash, so it cannot be told whether it was changed since it was exported.' };
  if (sha256 !== hash) return { routine, edited: true, note: 'The file was changed after it was exported (its hash no longer matches): read its sites and steps before you run it.' };
  return { routine, edited: false, note: null };
}

/** An edited file could list fewer sites than its steps go to: the list shown is always recomputed from the steps. */
function withSitesOfSteps(routine: Routine): Routine {
  const sites = new Set(routine.sites);
  const add = (url: unknown): void => {
    try {
      if (typeof url === 'string' && /^https?:/i.test(url)) sites.add(new URL(url).origin);
    } catch {
      // Not an address: nothing to list.
    }
  };
  add(routine.startUrl);
  routine.steps.forEach((step: RoutineStep) => {
    add(step.url);
    if (step.tool === 'navigate') add(step.args.url);
  });
  return { ...routine, sites: [...sites] };
}
