import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The part of axe's API the check uses. */
interface AxeRunner {
  run(context: Document, options: unknown): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }>;
}

/** The rules for WCAG 2.1 A and AA, which is what the panel promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * The rules among those whose result depends on colours. The colour scheme changes colours only (the panel's dark
 * theme is custom properties under prefers-color-scheme), so the second scheme is checked with these alone: every
 * rule runs once, the colour ones twice, and a run's work is bounded by the page and not doubled by the themes.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core run in the page as it is now, in light and in dark (the colour rules), returning every serious or critical violation as a
 * line ("dark: color-contrast: .step__check (2 nodes)"). The script is evaluated over the DevTools protocol, which
 * extension pages' CSP does not block (a <script> tag would be).
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const violations = await page.evaluate(
      async (runOnly) => {
        const result = await (window as unknown as { axe: AxeRunner }).axe.run(document, { runOnly, resultTypes: ['violations'] });
        return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((node) => node.target.map(String).join(' ')) }));
      },
      scheme === 'light' ? { type: 'tag', values: TAGS } : { type: 'rule', values: COLOUR_RULES },
    );
    for (const violation of violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
      found.push(`${where} (${scheme}): ${violation.id}: ${violation.targets.slice(0, 4).join(' | ')}${violation.targets.length > 4 ? ` (+${violation.targets.length - 4})` : ''}`);
    }
  }
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  return found;
}
