import fs from 'node:fs';
import { describe, it } from 'vitest';
import { backends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { runWholeEvent } from '../support/wholeEvent';

/**
 * The main job, in headless Chromium against the real server: a clan runs a whole event, from
 * the task import to the winner, live for two Leaders and a spectator, with axe-core and the
 * sideways-scroll checks on every page (the journey: tests/support/wholeEvent.ts). The server is
 * started with BOARD_SEED, so the dice and the number of rolls are fixed. The same journey runs
 * through nginx during a rolling restart in tests/e2e/rolling-restart.e2e.test.ts.
 */
const run = browserAvailable() ? describe : describe.skip;

/**
 * On PostgreSQL with TEST_REDIS_URL set, the event runs on two processes sharing Redis, with the
 * game cache as in production: the owner and the first Leader use one, the second Leader
 * and the spectator the other.
 */
const redisFor = (backend: string) => (backend === 'postgres' ? process.env.TEST_REDIS_URL || undefined : undefined);

/**
 * The rolling-restart test runs this same journey on PostgreSQL with Redis, three processes behind
 * nginx; when it can (nginx, PostgreSQL and Redis all here), this file runs the journey on SQLite
 * only, so the run does not pay twice for PostgreSQL across processes.
 */
const rollingRestartRuns = fs.existsSync(process.env.NGINX_PATH || '/usr/sbin/nginx') && !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL;
const journeys = backends().filter((b) => b === 'sqlite' || !rollingRestartRuns);

run.each(journeys.map((b) => [redisFor(b) ? `${b}, two processes and Redis` : b, b] as const))('a whole event in Chromium (%s)', (_label, backend) => {
  const suite = useBrowserSuite(backend, { BOARD_SEED: '20250501' }, redisFor(backend));

  it('runs from the task import to the winner, live for the Leaders and a spectator', { timeout: 420_000 }, async () => {
    const { rolls, winner } = await runWholeEvent({ browser: suite.browser, url: suite.url, urlB: suite.urlB });
    console.log(`[whole event] ${rolls} rolls, winner ${winner} (${backend})`);
  });
});
