import { describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e-fixture';
import { runCli } from './support/run-cli';

/** `npm run demo`'s script as a user starts it, with no model configured: no keys or model address from the machine. */
async function demo(args: string[]): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'DEPUTY_API_KEY', 'DEPUTY_BASE_URL']) delete env[name];
  const { code, output } = await runCli(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--runs-dir', 'test-artifacts/runs', ...args], { env });
  if (code !== 0) process.stderr.write(output);
  return { code, output };
}

describe('npm run demo', () => {
  // The built extension is all it needs: the demo starts its own browser, shop and scripted model.
  useE2e({ browser: false });

  it('runs the shop task through the real loop with the scripted model when no model is configured', async () => {
    // Nobody is at a terminal here to approve saving the account's email: the flag approves it, as a person would.
    const { code, output } = await demo(['--approve', 'all']);
    expect(output).toContain('SCRIPTED stand-in for the model: it is not AI');
    expect(output).toMatch(/OPENAI_API_KEY=.*\n.*ANTHROPIC_API_KEY=.*\n.*DEPUTY_BASE_URL=/);
    expect(output).toMatch(/Clicked \[\d+\] button "Add Pocket Buds earphones to cart"/);
    expect(output).toMatch(/Selected "United Kingdom" in \[\d+\] combobox "Country"/);
    expect(output).toMatch(/approval needed \(act, submit, account\): Click \[\d+\] button "Save details"/);
    expect(output).toContain('Done: Added Pocket Buds earphones');
    expect(code).toBe(0);
  });

  it('without a terminal (stdin not a TTY, no --approve) approves its own scripted risky step with a clear line and exits 0', async () => {
    // stdin is a pipe, closed at once: as an IDE task or CI runs it.
    const { code, output } = await demo([]);
    expect(output).toContain('No terminal to ask you on (standard input is not a TTY');
    expect(output).toMatch(/approved without asking \(--approve all\): Click \[\d+\] button "Save details"/);
    expect(output).not.toContain('nobody at the terminal');
    expect(output).toContain('Done: Added Pocket Buds earphones');
    expect(code).toBe(0);
  });
});
