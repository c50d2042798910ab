import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireBuild } from './support/register-host';

describe('npm run demo', () => {
  it('runs the shop task through the real loop with the scripted model when no model is configured', async () => {
    requireBuild();
    const env = { ...process.env };
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEPUTY_API_KEY', 'DEPUTY_BASE_URL']) delete env[name];
    // Nobody is at a terminal here to approve saving the account's email: the flag approves it, as a person would.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--runs-dir', 'test-artifacts/runs', '--approve', 'all'], { env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) process.stderr.write(output);
    expect(output).toContain('SCRIPTED stand-in for the model: it is not AI');
    expect(output).toMatch(/OPENAI_API_KEY=.*\n.*ANTHROPIC_API_KEY=.*\n.*DEPUTY_BASE_URL=/);
    expect(output).toMatch(/Clicked \[\d+\] button "Add Pocket Buds earphones to cart"/);
    expect(output).toMatch(/Selected "United Kingdom" in \[\d+\] combobox "Country"/);
    expect(output).toMatch(/approval needed \(act, submit, account\): Click \[\d+\] button "Save details"/);
    expect(output).toContain('Done: Added Pocket Buds earphones');
    expect(code).toBe(0);
  });

  it('without a terminal (stdin not a TTY, no --approve) approves its own scripted risky step with a clear line and exits 0', async () => {
    requireBuild();
    const env = { ...process.env };
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEPUTY_API_KEY', 'DEPUTY_BASE_URL']) delete env[name];
    // stdin is a pipe, closed at once: as an IDE task or CI runs it.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--runs-dir', 'test-artifacts/runs'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) process.stderr.write(output);
    expect(output).toContain('No terminal to ask you on (standard input is not a TTY');
    expect(output).toMatch(/approved without asking \(--approve all\): Click \[\d+\] button "Save details"/);
    expect(output).not.toContain('nobody at the terminal');
    expect(output).toContain('Done: Added Pocket Buds earphones');
    expect(code).toBe(0);
  });
});
