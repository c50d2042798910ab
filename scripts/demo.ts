import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { serveDemoSite } from './demo/serve-demo-site';
import { SCRIPTED_MODEL_NAME, startScriptedModel } from './demo/scripted-model';

// `npm run demo`: builds if needed, serves the demo shop, and runs a realistic task on it with `npm run task`, using
// the user's model when a key or a local server is configured, else the bundled scripted model (clearly not AI).
const TASK = 'Add the cheapest headphones to the cart, then open my account page and save my details: name Ada Lovelace, email ada@example.org, country United Kingdom.';
const say = (line = ''): void => void process.stdout.write(`${line}\n`);

if (!existsSync('dist/manifest.json') || !existsSync('dist-host/deputy.mjs')) {
  say('Building Deputy first (npm run build)…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const site = await serveDemoSite();
const env = process.env;
const providerFlags: string[] = [];
let scripted: Awaited<ReturnType<typeof startScriptedModel>> | undefined;
if (env.DEPUTY_BASE_URL) {
  providerFlags.push('--provider', 'openai-compatible', '--base-url', env.DEPUTY_BASE_URL, '--model', env.DEPUTY_MODEL ?? 'llama3.1');
  say(`Model: ${env.DEPUTY_MODEL ?? 'llama3.1'} at ${env.DEPUTY_BASE_URL}`);
} else if (env.OPENAI_API_KEY || env.ANTHROPIC_API_KEY) {
  providerFlags.push('--provider', env.OPENAI_API_KEY ? 'openai' : 'anthropic', ...(env.DEPUTY_MODEL ? ['--model', env.DEPUTY_MODEL] : []));
  say(`Model: ${env.OPENAI_API_KEY ? 'OpenAI' : 'Anthropic'} (key from the environment)`);
} else {
  scripted = await startScriptedModel();
  providerFlags.push('--provider', 'openai-compatible', '--base-url', scripted.baseUrl, '--model', SCRIPTED_MODEL_NAME);
  say('No model is configured, so this demo uses a SCRIPTED stand-in for the model: it is not AI, it follows a fixed');
  say('script for this shop. Everything else is real: the extension in Chromium, the agent loop, the policy gate,');
  say('the page snapshots and actions. To use a real model, set one of:');
  say('  OPENAI_API_KEY=sk-...            (OpenAI)');
  say('  ANTHROPIC_API_KEY=sk-ant-...     (Anthropic)');
  say('  DEPUTY_BASE_URL=http://localhost:11434/v1 DEPUTY_MODEL=llama3.1   (a local server: Ollama, LM Studio, vLLM)');
}
// Without a terminal (an IDE task, CI, output piped to a file) nobody can answer the risky step's y/n, so the demo
// approves its own scripted step, and says so, unless the caller chose with --approve.
const userArgs = process.argv.slice(2);
const unattended = !process.stdin.isTTY && !userArgs.includes('--approve');
if (unattended) {
  say('No terminal to ask you on (standard input is not a TTY: an IDE task, CI, or input from a file). In a terminal');
  say('the demo asks y/n before its risky step, and in the browser the side panel asks. Here the demo approves its');
  say("own scripted risky step (saving the account details on the demo shop) and prints it as 'approved without asking'.");
}
say(`Demo shop: ${site.url}`);
say(`Task: ${TASK}`);
say();

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'scripts/run-task.ts', '--url', site.url, '--mode', 'act', ...providerFlags, ...(unattended ? ['--approve', 'all'] : []), ...userArgs, TASK],
  { stdio: 'inherit' },
);
const code = await new Promise<number>((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
await scripted?.close();
await site.close();
process.exitCode = code;
