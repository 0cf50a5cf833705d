// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECK_WAIT_S, WOM_CHECK_MESSAGES } from '../../contract/womCheck';
import { ApiRequestError } from '../../src/api/client';
import { checkTeamProgress } from '../../src/api/games';

/**
 * 'Check now' call (docs/server.md §17) over a stand-in fetch: the path it posts to, a 202's
 * `retry_after` as the wait, a 429's Retry-After and text as the wait and refusal, and any other
 * failure raised with the server's text.
 */

const TOO_SOON = WOM_CHECK_MESSAGES.tooSoon(28, 272);
let seen: Request[] = [];

/** Node's Request, resolving the app's relative '/api/...' addresses against the page as a browser does. */
class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, location.href) : input, init);
  }
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  seen = [];
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal('fetch', async (input: Request) => {
    seen.push(input);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('checkTeamProgress', () => {
  it('posts to the team’s check and waits the 202’s retry_after', async () => {
    answer(202, { asked_at: '2026-05-01T10:05:00.000Z', retry_after: CHECK_WAIT_S });
    await expect(checkTeamProgress(7, 3, 11, 12)).resolves.toEqual({ waitS: CHECK_WAIT_S, refusal: null });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(new URL(seen[0].url).pathname).toBe('/api/clan/7/events/3/game/11/teams/12/progress/check');
  });

  it('turns a 429 into its Retry-After and the server’s text', async () => {
    answer(429, { error: TOO_SOON }, { 'Retry-After': '272' });
    await expect(checkTeamProgress(7, 3, 11, 12)).resolves.toEqual({ waitS: 272, refusal: TOO_SOON });
  });

  it('raises any other refusal with the server’s text', async () => {
    answer(403, { error: WOM_CHECK_MESSAGES.notOnTeam });
    const err = await checkTeamProgress(7, 3, 11, 12).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).message).toBe(WOM_CHECK_MESSAGES.notOnTeam);
    expect((err as ApiRequestError).status).toBe(403);
  });
});
