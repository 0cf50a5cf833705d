import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable, takeCspViolations, type CspViolation } from '../support/browser';
import { onboardedPerson } from '../support/e2e';

/**
 * The built client under the server's Content-Security-Policy (docs/server.md §8), in headless Chromium against the real server: the per-answer style nonce reaches the
 * libraries that add <style> tags (a Radix dialog locks the page's scroll with one), and the CSP
 * watcher of tests/support/browser.ts, which every browser suite checks after each test, does see
 * violations (so its "none" means something).
 */
const run = browserAvailable() ? describe : describe.skip;

run('the client under the CSP in Chromium', () => {
  const suite = useBrowserSuite('sqlite');
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  it('hands the answer\'s style nonce to the page; a dialog\'s scroll-lock style applies without a violation', async () => {
    const person = await onboardedPerson(suite.browser, suite.server, 'Nonce Nora', ['NoraMain']);
    contexts.push(person.context);
    const { page } = person;
    const answer = await page.goto(`${suite.url}/profile`);
    const headerNonce = /'nonce-([^']+)'/.exec((await answer!.headerValue('content-security-policy')) ?? '')?.[1];
    expect(headerNonce).toBeTruthy();
    await page.getByRole('heading', { name: 'Linked IGNs' }).waitFor();
    expect(await page.evaluate(() => (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__)).toBe(headerNonce);

    await page.getByRole('button', { name: 'Link New IGNs' }).click();
    await page.getByRole('dialog', { name: 'Link New IGNs' }).waitFor();
    // react-remove-scroll's <style> (with the nonce) is what hides the page's overflow.
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    expect(await page.evaluate(() => [...document.querySelectorAll('style')].every((s) => s.nonce !== ''))).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(person.errors).toEqual([]);
  });

  it('the CSP watcher reports an inline script and an inline style the page tries to add', async () => {
    const context = await suite.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${suite.url}/`);
    await page.getByRole('button', { name: 'Log in with Discord' }).waitFor(); // disabled: this server has no Discord client
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      document.head.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { outline: 3px solid red; }';
      document.head.append(style);
    });
    const seen: CspViolation[] = [];
    const directives = () => {
      seen.push(...takeCspViolations(suite.browser));
      return seen.filter((v) => v.via === 'event').map((v) => v.detail.split(' | ')[0]).sort();
    };
    await expect.poll(directives, { timeout: 5000 }).toEqual(['script-src-elem', 'style-src-elem']);
    // Chromium's own console messages about the same two are caught too.
    await expect.poll(() => (directives(), seen.filter((v) => v.via === 'console' && v.detail.includes('Content Security Policy')).length), { timeout: 5000 }).toBe(2);
    expect(await page.evaluate(() => (window as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
  });
});
