import { isAbsolute } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseTaskFlags, TaskUsageError } from '../../../../scripts/task/task-flags';

describe('npm run task flags', () => {
  it('takes the task from the words and the key from the environment', () => {
    const options = parseTaskFlags(['--url', 'https://shop.example/', 'add', 'the', 'cheapest', 'plan'], { OPENAI_API_KEY: 'sk-1' });
    expect(options).toMatchObject({
      url: 'https://shop.example/',
      task: 'add the cheapest plan',
      mode: 'act',
      approve: 'ask',
      provider: { preset: 'openai', apiKey: 'sk-1', model: 'gpt-4o-mini' },
    });
  });

  it('sends a compatible server (--base-url) DEPUTY_API_KEY, else OPENAI_API_KEY', () => {
    const args = ['--base-url', 'https://openrouter.example/api/v1', '--model', 'm', 'go'];
    expect(parseTaskFlags(args, { OPENAI_API_KEY: 'sk-o' }).provider).toMatchObject({ preset: 'custom', apiKey: 'sk-o' });
    expect(parseTaskFlags(args, { OPENAI_API_KEY: 'sk-o', DEPUTY_API_KEY: 'd' }).provider).toMatchObject({ apiKey: 'd' });
    expect(parseTaskFlags(args, {}).provider).not.toHaveProperty('apiKey');
  });

  it('uses Anthropic when only its key is set, and DEPUTY_API_KEY for any provider', () => {
    expect(parseTaskFlags(['--url', 'https://a.example/', 'go'], { ANTHROPIC_API_KEY: 'k' }).provider).toMatchObject({ preset: 'anthropic', apiKey: 'k' });
    expect(parseTaskFlags(['--url', 'https://a.example/', '--provider', 'anthropic', 'go'], { DEPUTY_API_KEY: 'd' }).provider).toMatchObject({ apiKey: 'd' });
  });

  it('points an OpenAI-compatible server by base URL, key optional', () => {
    const options = parseTaskFlags(['--url', 'http://127.0.0.1:8080/', '--base-url', 'http://localhost:11434/v1', '--model', 'llama3.1', '--mode', 'ask', '--approve', 'none', 'go'], {});
    expect(options.provider).toEqual({ preset: 'custom', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
    expect(options).toMatchObject({ mode: 'ask', approve: 'none' });
  });

  it('reaches every provider option: the Responses API, JSON tool calls, screenshots and reasoning effort', () => {
    const argv = ['--url', 'https://a.example/', '--api', 'responses', '--json-tools', '--screenshots', '--reasoning-effort', 'high', 'go'];
    expect(parseTaskFlags(argv, { OPENAI_API_KEY: 'k' }).provider).toMatchObject({ preset: 'openai', openaiApi: 'responses', toolCalling: 'json', vision: true, reasoningEffort: 'high' });
    const compatible = parseTaskFlags(['--base-url', 'http://localhost:11434/v1', '--model', 'qwen3', '--json-tools', 'go'], {}).provider;
    expect(compatible).toEqual({ preset: 'custom', baseUrl: 'http://localhost:11434/v1', model: 'qwen3', toolCalling: 'json' });
    expect(parseTaskFlags(['--provider', 'anthropic', '--reasoning-effort', 'low', 'go'], { ANTHROPIC_API_KEY: 'k' }).provider).toMatchObject({ reasoningEffort: 'low' });
    // Without the flags, the provider's own defaults apply (nothing is set).
    expect(parseTaskFlags(['go'], { OPENAI_API_KEY: 'k' }).provider).not.toHaveProperty('reasoningEffort');
  });

  it('sends what changed by default, and whole pages with --page-view full', () => {
    expect(parseTaskFlags(['go'], { OPENAI_API_KEY: 'k' }).pageView).toBe('diff');
    expect(parseTaskFlags(['--page-view', 'full', 'go'], { OPENAI_API_KEY: 'k' }).pageView).toBe('full');
    expect(parseTaskFlags(['--page-view', 'diff', 'go'], { OPENAI_API_KEY: 'k' }).pageView).toBe('diff');
    expect(() => parseTaskFlags(['--page-view', 'some', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/full, diff/);
  });

  it('refuses provider options that cannot apply, saying why', () => {
    expect(() => parseTaskFlags(['--api', 'responses', 'go'], { ANTHROPIC_API_KEY: 'k' })).toThrow(/Anthropic models always use the Messages API/);
    expect(() => parseTaskFlags(['--api', 'soap', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/--api.*chat, responses/);
    expect(() => parseTaskFlags(['--reasoning-effort', 'max', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/low, medium, high/);
  });

  it('says what to set when no key is there', () => {
    expect(() => parseTaskFlags(['--url', 'https://a.example/', 'go'], {})).toThrow(/set OPENAI_API_KEY .*--base-url/);
  });

  it('starts on a blank tab without --url, and takes a profile, a browser and JSON output', () => {
    const options = parseTaskFlags(['--profile', '/home/ada/deputy-profile', '--browser', '/usr/bin/brave-browser', '--json', 'find', 'the', 'docs'], { OPENAI_API_KEY: 'k' });
    expect(options).toMatchObject({ url: undefined, task: 'find the docs', profile: '/home/ada/deputy-profile', browser: '/usr/bin/brave-browser', json: true, hostRules: undefined });
  });

  it('reads the test-only host mapping from DEPUTY_HOST_RULES, and refuses one it cannot read', () => {
    expect(parseTaskFlags(['go'], { OPENAI_API_KEY: 'k', DEPUTY_HOST_RULES: 'MAP *.test 127.0.0.1' }).hostRules).toBe('MAP *.test 127.0.0.1');
    expect(() => parseTaskFlags(['go'], { OPENAI_API_KEY: 'k', DEPUTY_HOST_RULES: 'SEND * nowhere' })).toThrow(/cannot read the rule "SEND \* nowhere"/);
  });

  it('prints help and exits 0 for --help, with the exit codes', () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((text) => written.push(String(text)) > 0);
    try {
      let error: unknown;
      try {
        parseTaskFlags(['--help'], {});
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TaskUsageError);
      expect((error as TaskUsageError).exitCode).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const help = written.join('');
    expect(help).toContain('--profile <dir>');
    expect(help).toMatch(/Exit codes:\n {2}0 {4}the task succeeded/);
    expect(help).toContain('130  interrupted with Ctrl-C');
  });

  it('refuses bad input with a usage error', () => {
    expect(() => parseTaskFlags([], { OPENAI_API_KEY: 'k' })).toThrow(TaskUsageError);
    expect(() => parseTaskFlags(['--chat', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/--chat needs --url/);
    expect(() => parseTaskFlags(['--url', 'ftp://x/', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/not an http\(s\) URL/);
    expect(() => parseTaskFlags(['--url', 'https://a.example/', '--mode', 'yolo', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(TaskUsageError);
    expect(() => parseTaskFlags(['--url', 'https://a.example/', '--steps', '0', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/whole number/);
    expect(() => parseTaskFlags(['--url', 'https://a.example/', '--provider', 'openai-compatible', 'go'], {})).toThrow(/needs --base-url/);
  });

  it('runs a chat case with the facts Deputy may share, repeatable and named like the side panel', () => {
    const options = parseTaskFlags(
      ['--chat', '--url', 'https://shop.example/help', '--fact', 'order_number=1234', '--fact', 'Email = jane@example.org', '--fact', 'name=Jane Doe', 'refund', 'for', 'order', '1234'],
      { OPENAI_API_KEY: 'k' },
    );
    expect(options).toMatchObject({ flow: 'chat', task: 'refund for order 1234', facts: { order_number: '1234', email: 'jane@example.org', name: 'Jane Doe' } });
    expect(parseTaskFlags(['--url', 'https://a.example/', 'go'], { OPENAI_API_KEY: 'k' })).toMatchObject({ flow: 'task', facts: {} });
  });

  it('attaches files for the upload tool with --file, repeatable, by absolute path, refusing what is not a readable file', () => {
    const options = parseTaskFlags(['--file', 'package.json', '--file', 'README.md', 'apply'], { OPENAI_API_KEY: 'k' });
    expect(options.files.map(({ name, type }) => [name, type])).toEqual([['package.json', 'application/json'], ['README.md', 'text/markdown']]);
    expect(options.files.every((file) => isAbsolute(file.path) && file.size > 0)).toBe(true);
    expect(() => parseTaskFlags(['--file', 'no/such/file.pdf', 'apply'], { OPENAI_API_KEY: 'k' })).toThrow(/no\/such\/file\.pdf cannot be read: there is no such file/);
    expect(() => parseTaskFlags(['--file', 'scripts', 'apply'], { OPENAI_API_KEY: 'k' })).toThrow(/scripts is not a file/);
    expect(() => parseTaskFlags(['--file', 'README.md', '--file', './README.md', 'apply'], { OPENAI_API_KEY: 'k' })).toThrow(/two files are named README\.md/);
    expect(parseTaskFlags(['go'], { OPENAI_API_KEY: 'k' }).files).toEqual([]);
  });

  it('says how to write a fact, and that facts need --chat', () => {
    expect(() => parseTaskFlags(['--chat', '--url', 'https://a.example/', '--fact', 'order 1234', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/not name=value: write e\.g\. --fact order_number=1234/);
    expect(() => parseTaskFlags(['--chat', '--url', 'https://a.example/', '--fact', 'email=', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(TaskUsageError);
    expect(() => parseTaskFlags(['--url', 'https://a.example/', '--fact', 'email=a@b.example', 'go'], { OPENAI_API_KEY: 'k' })).toThrow(/--fact is for chat cases: add --chat/);
  });
});
