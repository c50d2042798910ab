import { readFile, readdir } from 'node:fs/promises';

/** One process of a sampled tree: what it is (Node, the browser, a renderer, a utility by its sub-type) and its RSS. */
export interface ProcessSample {
  pid: number;
  kind: string;
  rssKb: number;
  /** The browser process's flags (the one process whose command line says how the browser was started). */
  flags?: string[];
}

/**
 * What a process is, from its command line: Chromium's children say `--type=` (and a utility its sub-type, a renderer
 * whether it hosts extensions), anything else is named after its executable and, for Node, its script.
 */
export function processKind(cmdline: string[]): string {
  // Chromium rewrites its children's command lines into one string, arguments joined by spaces.
  const argv = cmdline.length === 1 ? (cmdline[0] ?? '').split(' ') : cmdline;
  const flag = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const type = flag('type');
  if (type === 'utility') return `utility (${flag('utility-sub-type')?.split('.').pop() ?? 'unnamed'})`;
  if (type === 'renderer') return argv.includes('--extension-process') ? 'renderer (extension)' : 'renderer';
  if (type) return type;
  const exe = argv[0]?.split('/').pop() ?? '?';
  if (/^node(\.exe)?$/.test(exe)) {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return `node ${script?.split('/').slice(-2).join('/') ?? ''}`.trim();
  }
  return /chrom|brave|msedge/i.test(exe) ? 'browser' : exe;
}

/** The processes of a tree rooted at `root` (the root and all its descendants), from /proc (Linux). */
export async function processTree(root: number): Promise<ProcessSample[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isFinite(ppid)) parents.set(Number(name), ppid);
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) if (!tree.has(pid) && tree.has(ppid)) grew = tree.add(pid) !== undefined;
  }
  const samples: ProcessSample[] = [];
  for (const pid of tree) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter((a) => a !== '');
    if (argv.length === 0) continue;
    const kind = processKind(argv);
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    samples.push({ pid, kind, rssKb, ...(kind === 'browser' ? { flags: argv.slice(1).filter((a) => a.startsWith('--')) } : {}) });
  }
  return samples;
}

/** A tree at its peak: the summed RSS and, per kind of process, how many there were and what they held. */
export interface PeakMemory {
  peakRssKb: number;
  atPeak: ProcessSample[];
}

/** Samples a process tree's resident memory every 250 ms until stopped; `stop` gives the peak and the tree then. */
export function samplePeakRss(pid: number | undefined): { stop(): Promise<PeakMemory> } {
  const peak: PeakMemory = { peakRssKb: 0, atPeak: [] };
  let sampling = Promise.resolve();
  const sampler = setInterval(() => {
    sampling = sampling.then(async () => {
      if (!pid) return;
      const tree = await processTree(pid);
      const total = tree.reduce((sum, p) => sum + p.rssKb, 0);
      if (total > peak.peakRssKb) Object.assign(peak, { peakRssKb: total, atPeak: tree });
    });
  }, 250);
  return {
    async stop() {
      clearInterval(sampler);
      await sampling;
      return peak;
    },
  };
}

/** "3 renderer 310 MB, browser 1 120 MB, ..." : the kinds of process at the peak, largest first. */
export function describeTree(samples: ProcessSample[]): string {
  const kinds = new Map<string, { count: number; kb: number }>();
  for (const s of samples) {
    const entry = kinds.get(s.kind) ?? { count: 0, kb: 0 };
    kinds.set(s.kind, { count: entry.count + 1, kb: entry.kb + s.rssKb });
  }
  return [...kinds.entries()]
    .sort((a, b) => b[1].kb - a[1].kb)
    .map(([kind, { count, kb }]) => `${count > 1 ? `${count}x ` : ''}${kind} ${Math.round(kb / 1024)} MB`)
    .join(', ');
}

/** Flags that name a run's own folder, port or pipe: they differ between any two runs and say nothing of the browser. */
const PER_RUN = /^--(user-data-dir|remote-debugging-port|remote-debugging-pipe|crashpad-handler-pid)(=|$)/;

/** The browser flags one tree's browser had and the other's did not (per-run folders and ports left out). */
export function flagDifference(mine: ProcessSample[], theirs: ProcessSample[]): { onlyMine: string[]; onlyTheirs: string[]; shared: number } {
  const flags = (tree: ProcessSample[]): Set<string> => new Set((tree.find((p) => p.kind === 'browser')?.flags ?? []).filter((f) => !PER_RUN.test(f)));
  const a = flags(mine);
  const b = flags(theirs);
  return { onlyMine: [...a].filter((f) => !b.has(f)), onlyTheirs: [...b].filter((f) => !a.has(f)), shared: [...a].filter((f) => b.has(f)).length };
}
