import { pathToFileURL } from 'node:url';

interface GenerateParams {
  messages: { role: string; content: unknown }[];
  systemPrompt?: string;
  responseFormat?: unknown;
}

interface Page {
  goto(url: string): Promise<unknown>;
  goBack(): Promise<unknown>;
}

/** The part of Stagehand's API this run uses (the package is installed on demand, outside the project). */
interface StagehandModule {
  localBrowser: { launch(options: Record<string, unknown>): Promise<{ context: { pages(): Promise<Page[]> }; close(): Promise<void> }> };
  Stagehand: { create(options: Record<string, unknown>): Promise<{ act(instruction: string): Promise<{ success?: boolean }>; close(): Promise<void> }> };
}

/**
 * The peer's side of `npm run bench:agent`, run as its own process so its whole tree (Node, Chromium and Stagehand's
 * extension) is measured as Deputy's is: Stagehand's `act()` on the same local shop with the same script (open a
 * product, show its details, go back), its model a client-side function that answers at once by reading the
 * accessibility tree Stagehand sends, as Deputy's scripted model reads Deputy's snapshot. Prints one JSON line.
 *
 * Bundled to plain JavaScript before it runs (stagehand-peer-run.ts), so its start costs what a user's script's would,
 * as Deputy's prebuilt CLI does.
 *
 * Usage: node [--experimental-websocket] <bundled peer> <stagehand entry> <browser> <shop URL> <steps> <flags as JSON>
 *
 * The browser starts with the flags given (Deputy's, from stagehand-peer-run.ts) in place of Stagehand's defaults.
 */
const [entry, browserPath, shopUrl, stepsArg, flagsArg] = process.argv.slice(2);
if (!entry || !browserPath || !shopUrl || !stepsArg || !flagsArg) throw new Error('usage: stagehand-peer <stagehand entry> <browser> <shop URL> <steps> <browser flags as JSON>');
const steps = Number(stepsArg);
// The process's own start, on the wall clock the parent also reads: cold start counts Node's start too.
const started = 0;
const stagehand = (await import(pathToFileURL(entry).href)) as StagehandModule;

/** What the script wants next, set before each act(): the role and name of the element, as the tree shows them. */
let want: { role: string; name: string } | null = null;
let firstModelCallAt: number | undefined;
let promptChars = 0;
let modelCalls = 0;

const model = {
  generate(params: GenerateParams): Promise<unknown> {
    firstModelCallAt ??= performance.now();
    modelCalls += 1;
    const text = `${params.systemPrompt ?? ''}${JSON.stringify(params.messages)}${JSON.stringify(params.responseFormat ?? '')}`;
    promptChars += text.length;
    const tree = params.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    let elementId: string | undefined;
    for (const match of tree.replaceAll('\\n', '\n').matchAll(/\[(\d+-\d+)\] ([\w-]+): ([^\n]*)/g)) {
      if (want && match[2] === want.role && match[3]?.trim() === want.name) elementId = match[1];
    }
    const out = { action: elementId ? { elementId, description: `${want?.role} ${want?.name}`, method: 'click', arguments: [] } : null, twoStep: false };
    return Promise.resolve({
      role: 'assistant',
      content: { type: 'text', text: JSON.stringify(out) },
      outputFormat: 'json_schema',
      structuredContent: out,
      usage: { inputTokens: Math.ceil(text.length / 4), outputTokens: 30, totalTokens: Math.ceil(text.length / 4) + 30 },
    });
  },
};

const browser = await stagehand.localBrowser.launch({
  executablePath: browserPath,
  // Headless and the rest come with the flags, which replace Stagehand's defaults.
  headless: false,
  ignoreDefaultArgs: true,
  args: JSON.parse(flagsArg) as string[],
});
const agent = await stagehand.Stagehand.create({ browser, model, logging: { level: 'error' } });
const [page] = await browser.context.pages();
if (!page) throw new Error('Stagehand opened no page');
await page.goto(shopUrl);
const ready = performance.now();
const products = 6;
const timings: { kind: string; ms: number; ok: boolean }[] = [];
for (let n = 0; n < steps - 1; n += 1) {
  const round = Math.floor(n / 3);
  const at = performance.now();
  let ok = true;
  if (n % 3 === 0) {
    want = { role: 'link', name: `Bottle ${(round % products) + 1}` };
    ok = (await agent.act(`click the link "${want.name}"`)).success !== false;
    timings.push({ kind: 'click a link (navigates)', ms: performance.now() - at, ok });
  } else if (n % 3 === 1) {
    want = { role: 'button', name: 'Show details' };
    ok = (await agent.act('click the "Show details" button')).success !== false;
    timings.push({ kind: 'click a button (in page)', ms: performance.now() - at, ok });
  } else {
    await page.goBack();
    timings.push({ kind: 'go back', ms: performance.now() - at, ok });
  }
}
await agent.close();
await browser.close();
process.stdout.write(
  `${JSON.stringify({ startedAt: performance.timeOrigin, firstModelCallAt: performance.timeOrigin + (firstModelCallAt ?? ready), readyMs: ready - started, timings, promptChars, modelCalls })}\n`,
);
