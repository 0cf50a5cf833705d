import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, the one browser these tests drive (DEVELOPERS.md "This machine"). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags Chromium needs here: root, no GPU, no network of its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/**
 * Whether browser tests can run. Without a Chromium they are skipped with a loud notice, except
 * with CI=true where a missing browser is an error (issue #2 "Tests").
 */
export function browserAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium).`);
  console.warn(`\n!!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium) !!!\n`);
  return false;
}

/** Launches headless Chromium through playwright-core. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
