import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, read once. */
let axeSource: string | null = null;

/** One axe violation as the tests report it: rule, impact and where. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules plus best practices) on `page` and answers every
 * violation. axe is evaluated through the DevTools protocol (page.evaluate), so the page's CSP is
 * neither bypassed nor tripped. Nodes are listed by their CSS selector, at most 5 per rule.
 */
export async function a11yViolations(page: Page): Promise<AxeFinding[]> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')) }));
  });
}

/** The serious and critical ones of a11yViolations. */
export async function seriousA11yViolations(page: Page): Promise<AxeFinding[]> {
  return (await a11yViolations(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical');
}
