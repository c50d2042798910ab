import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ProviderSettings } from '../../shared/agent/providers/create-provider';
import { PROVIDER_PRESETS } from '../../shared/agent/providers/provider-presets';
import { lookupWithRules } from '../lib/host-rules';

export class ModelServerError extends Error {
  override readonly name = 'ModelServerError';
}

export interface PreflightResult {
  /** The address that answered. */
  url: string;
  /** Said when the server answered but something may still go wrong (the model it lists does not include ours). */
  warning?: string;
}

/** The model list of the provider: every OpenAI-compatible server (Ollama, LM Studio, vLLM) and Anthropic have one. */
export function modelsUrl(provider: ProviderSettings): string {
  const preset = PROVIDER_PRESETS[provider.preset];
  const base = (provider.baseUrl ?? preset.baseUrl ?? '').replace(/\/+$/, '');
  return preset.api === 'anthropic' ? `${base}/v1/models` : `${base}/models`;
}

function headersFor(provider: ProviderSettings): Record<string, string> {
  const preset = PROVIDER_PRESETS[provider.preset];
  if (!provider.apiKey) return {};
  if (preset.api === 'anthropic') return { 'x-api-key': provider.apiKey, 'anthropic-version': '2023-06-01' };
  if (preset.keyHeader) return { [preset.keyHeader]: provider.apiKey };
  return { authorization: `Bearer ${provider.apiKey}` };
}

function get(url: string, headers: Record<string, string>, hostRules: string | undefined, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const parsed = new URL(url);
    const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(parsed, { method: 'GET', headers: { accept: 'application/json', ...headers }, lookup: lookupWithRules(hostRules), timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        // The answer only has to say whether the model is there; a huge list is not read to its end.
        if (size < 2_000_000) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  });
}

function listedModels(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    const ids = [...(parsed.data ?? []).map((m) => m.id), ...(parsed.models ?? []).map((m) => m.name)];
    return ids.filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}

/** Servers on the user's own machine or network, whose model list names exactly the models they serve. */
function isOwnServer(provider: ProviderSettings): boolean {
  return provider.preset === 'custom' || PROVIDER_PRESETS[provider.preset].free;
}

function hint(provider: ProviderSettings): string {
  if (isOwnServer(provider)) {
    return 'Is the server running, and is --base-url right? (Ollama: `ollama serve`, then --base-url http://localhost:11434/v1; LM Studio: start its server, --base-url http://localhost:1234/v1.)';
  }
  return 'Check the network connection (and a proxy, if you need one), or use a local model server with --base-url.';
}

/**
 * Asks the model server for its model list before any browser starts, so a server that is down, a wrong address or a
 * refused key is said at once, in words, instead of after the browser started and the first step failed five times.
 * Any answer but a refused key means the server is there: some servers have no model list and answer 404.
 */
export async function checkModelServer(provider: ProviderSettings, options: { hostRules?: string | undefined; timeoutMs?: number } = {}): Promise<PreflightResult> {
  const url = modelsUrl(provider);
  let reply: { status: number; body: string };
  try {
    reply = await get(url, headersFor(provider), options.hostRules, options.timeoutMs ?? 10_000);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOTFOUND' ? `the name ${new URL(url).hostname} does not resolve` : code === 'ECONNREFUSED' ? 'nothing is listening there' : (error as Error).message;
    throw new ModelServerError(`Cannot reach the model server at ${new URL(url).origin} (${reason}). ${hint(provider)}`);
  }
  if (reply.status === 401 || reply.status === 403) {
    const variable = PROVIDER_PRESETS[provider.preset].keyHint;
    throw new ModelServerError(`The model server at ${new URL(url).origin} refused the API key (HTTP ${reply.status}): check ${variable}.`);
  }
  if (reply.status >= 200 && reply.status < 300 && isOwnServer(provider)) {
    const models = listedModels(reply.body);
    // Ollama lists "llama3.1:latest" for "llama3.1".
    const known = models.some((id) => id === provider.model || id === `${provider.model}:latest`);
    if (models.length > 0 && !known) {
      return { url, warning: `The server at ${new URL(url).origin} lists no model named "${provider.model}" (it lists ${models.slice(0, 8).join(', ')}${models.length > 8 ? ', …' : ''}): the task may fail. Choose one with --model.` };
    }
  }
  return { url };
}
