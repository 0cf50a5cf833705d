import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, newGame, type Cast, type TestGame } from '../support/liveSocket';
import { DINK_MESSAGES, DinkAccountsAnswerSchema, type DinkOutcome } from '../../contract/dink';
import { FAST, fillPool, fixture, fresh, expectError, postOutcome, recentPosts } from './dinkSupport';

/**
 * Pinned Dink accounts over real HTTP, on both databases (docs/server.md §13 'Pinned accounts'):
 * a made-up `dinkAccountHash` posted under a player's IGN pins it and makes the player's real
 * posts 'suspicious'; managers see the pin (IGN, first 8 characters of the hash, when, posts),
 * clear it, and the player's next post pins the real hash. Non-managers 403 with the text of the
 * other Dink manager routes; unknown events and IGNs not on a team 404. The recent list drops bidi
 * controls and zero-width characters from posted names.
 */

/** The account hash of the recorded fixtures (tests/fixtures/dink/quest.json): Iron Bob's real account. */
const REAL_HASH = fixture('QUEST').dinkAccountHash as string;
const FAKE_HASH = 'madeUpHash-0123456789abcdefghijklmnopqrstuvwxyz';


describe.each(backends())('Dink pinned accounts (%s)', (backend) => {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-dink-accounts-'));
  const suite = useServerSuite(backend, { UPLOAD_DIR: uploads, ...FAST });
  let cast: Cast;
  let bobIgn: number;

  beforeAll(async () => {
    cast = await castOf(suite.url, `pins-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    const bob = new ApiClient(suite.url);
    const me = await bob.onboard(`pins-bob-${backend}`, ['Iron Bob'], { role: 'Member', clan_id: cast.clanId });
    bobIgn = me.igns[0].id;
  });

  afterAll(() => fs.rmSync(uploads, { recursive: true, force: true }));

  const dinkPath = (game: TestGame) => `/api/clan/${cast.clanId}/events/${game.eventId}/dink`;

  /** A started game with Iron Bob on team 1 and its Dink link's URL. */
  async function dinkGame() {
    const game = await newGame(cast, { proof: true, start: true });
    expect((await cast.owner.post(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}/members`, { osrs_ign_id: bobIgn, role: 'Member' })).status).toBe(200);
    const made = await cast.owner.post(dinkPath(game));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return { game, url: (made.body.dink.url as string).replace(/^https?:\/\/[^/]+/, suite.url) };
  }

  const accounts = async (game: TestGame) => {
    const r = await cast.owner.get(`${dinkPath(game)}/accounts`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return v.parse(DinkAccountsAnswerSchema, r.body).accounts;
  };

  const recent = (game: TestGame) => recentPosts(cast.owner, dinkPath(game));

  /** Posts and answers the recorded outcome. */
  const outcome = (game: TestGame, url: string, payload: unknown): Promise<DinkOutcome> => postOutcome(cast.owner, dinkPath(game), url, payload);

  it('a made-up hash pins the IGN and shuts out the real account until a manager clears it; the next post pins again', async () => {
    const { game, url } = await dinkGame();
    expect(await accounts(game)).toEqual([]);
    // Someone with the event's URL posts as Iron Bob with a hash of their own: pinned.
    expect(await outcome(game, url, { ...fresh(fixture('QUEST'), 'Iron Bob'), dinkAccountHash: FAKE_HASH })).toBe('no_task');
    const [pin] = await accounts(game);
    expect(pin).toEqual({ ign_id: bobIgn, ign: 'Iron Bob', account_hash_prefix: FAKE_HASH.slice(0, 8), pinned_at: expect.any(String), posts: 1 });
    expect(Math.abs(Date.parse(pin.pinned_at) - Date.now())).toBeLessThan(60_000);
    // Bob's real posts are refused, and counted nowhere.
    expect(await outcome(game, url, fresh(fixture('QUEST')))).toBe('suspicious');
    expect(await outcome(game, url, { ...fresh(fixture('QUEST')), dinkAccountHash: undefined })).toBe('suspicious');
    // The pinned hash counts each post it sends under the IGN (spelt another way too); a duplicate does not count.
    const again = { ...fresh(fixture('QUEST'), 'IRON-BOB'), dinkAccountHash: FAKE_HASH };
    expect(await outcome(game, url, again)).toBe('no_task');
    expect(await outcome(game, url, again)).toBe('duplicate');
    expect((await accounts(game))[0]).toMatchObject({ account_hash_prefix: FAKE_HASH.slice(0, 8), posts: 2 });

    const clear = await cast.owner.del(`${dinkPath(game)}/accounts/${bobIgn}`);
    expect(clear.status, JSON.stringify(clear.body)).toBe(200);
    expect(clear.body).toEqual({ ok: true });
    expect(await accounts(game)).toEqual([]);
    // Clearing again is not an error.
    expect((await cast.owner.del(`${dinkPath(game)}/accounts/${bobIgn}`)).body).toEqual({ ok: true });
    // Bob's next post pins his real account; the made-up one is now refused.
    expect(await outcome(game, url, fresh(fixture('QUEST')))).toBe('no_task');
    expect(await accounts(game)).toEqual([{ ign_id: bobIgn, ign: 'Iron Bob', account_hash_prefix: REAL_HASH.slice(0, 8), pinned_at: expect.any(String), posts: 1 }]);
    expect(await outcome(game, url, { ...fresh(fixture('QUEST')), dinkAccountHash: FAKE_HASH })).toBe('suspicious');
    expect(await outcome(game, url, fresh(fixture('QUEST')))).toBe('no_task');
    expect((await accounts(game))[0].posts).toBe(2);
    // Only the prefix is answered, never the whole hash.
    expect(JSON.stringify((await cast.owner.get(`${dinkPath(game)}/accounts`)).body)).not.toContain(REAL_HASH.slice(0, 9));
  });

  it('every IGN of the event with a pin, sorted by IGN; a pin whose IGN left the teams is not listed', async () => {
    const { game, url } = await dinkGame();
    expect(await outcome(game, url, { ...fresh(fixture('QUEST'), 'PlainMember'), dinkAccountHash: 'memberHash-xyz' })).toBe('no_task');
    expect(await outcome(game, url, fresh(fixture('QUEST'), 'iron bob'))).toBe('no_task');
    expect(await outcome(game, url, { ...fresh(fixture('QUEST'), 'LeaderTwo'), dinkAccountHash: undefined })).toBe('no_task');
    expect((await accounts(game)).map((a) => [a.ign, a.account_hash_prefix, a.posts])).toEqual([
      ['Iron Bob', REAL_HASH.slice(0, 8), 1],
      ['PlainMember', 'memberHa', 1],
    ]);
    const members = (await cast.owner.get(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}/members`)).body.team_members as { id: number; osrs_ign: string }[];
    const plain = members.find((m) => m.osrs_ign === 'PlainMember')!;
    const removed = await cast.owner.del(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}/members/${plain.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await accounts(game)).map((a) => a.ign)).toEqual(['Iron Bob']);
    // Its IGN is no longer on a team: 404, as for any IGN not on one.
    expectError(await cast.owner.del(`${dinkPath(game)}/accounts/${cast.ign.member}`), 404, DINK_MESSAGES.ignNotOnTeam(cast.ign.member));
  });

  it('managers only (403 as the other Dink manager routes), 401 signed out; 404 unknown event and IGN not on a team; 400 a bad id', async () => {
    const { game } = await dinkGame();
    const p = dinkPath(game);
    const refused = await cast.member.get(`${p}/recent`);
    expect(refused.status).toBe(403);
    expectError(await cast.member.get(`${p}/accounts`), 403, refused.body.error);
    expectError(await cast.member.del(`${p}/accounts/${bobIgn}`), 403, refused.body.error);
    expectError(await cast.outsider.get(`${p}/accounts`), 403);
    expectError(await new ApiClient(suite.url).get(`${p}/accounts`), 401);
    const noEvent = `/api/clan/${cast.clanId}/events/999999/dink`;
    const eventMissing = await cast.owner.get(`${noEvent}/recent`);
    expect(eventMissing.status).toBe(404);
    expectError(await cast.owner.get(`${noEvent}/accounts`), 404, eventMissing.body.error);
    expectError(await cast.owner.del(`${noEvent}/accounts/${bobIgn}`), 404, eventMissing.body.error);
    // OwnerB is an IGN of the clan's owner, on no team of the event; 999999 is no IGN at all.
    expectError(await cast.owner.del(`${p}/accounts/${cast.ign.ownerB}`), 404, DINK_MESSAGES.ignNotOnTeam(cast.ign.ownerB));
    expectError(await cast.owner.del(`${p}/accounts/999999`), 404, DINK_MESSAGES.ignNotOnTeam(999999));
    expectError(await cast.owner.del(`${p}/accounts/abc`), 400, 'Invalid IGN id.');
    // A bad trailing id is judged after the clan and the event: 403 for a member, 404 without the event.
    expectError(await cast.member.del(`${p}/accounts/abc`), 403, refused.body.error);
    expectError(await cast.owner.del(`${noEvent}/accounts/abc`), 404, eventMissing.body.error);
    expectError(await cast.owner.del(`/api/clan/abc/events/1/dink/accounts/abc`), 400, 'Invalid clan id.');
    // An IGN on a team without a pin: nothing to clear, still 200.
    expect((await cast.owner.del(`${p}/accounts/${cast.ign.leader2}`)).body).toEqual({ ok: true });
  });

  it('the recent list drops bidi controls and zero-width characters from posted names, also from rows stored before', async () => {
    const { game, url } = await dinkGame();
    const name = '\u202EboB nor\u202CI\u200B\u2066x\u2069\uFEFF';
    expect(await outcome(game, url, { ...fresh(fixture('QUEST'), name), type: 'QU\u200FEST' })).toBe('no_match');
    const [post] = await recent(game);
    expect(post.player_name).toBe('boB norIx');
    expect(post.type).toBe('QUEST');
    // A row stored with the characters (as before this rule) is cleaned on the way out.
    await directSql(suite.env, 'INSERT INTO dink_posts (event_id, at, player_name, type, summary, outcome) VALUES (?, ?, ?, ?, ?, ?)', [
      game.eventId, new Date().toISOString(), 'Old\u202ERow', 'LOOT', 'Bones x1 from \u202Egoblin', 'no_match',
    ]);
    const [old] = await recent(game);
    expect([old.player_name, old.summary]).toEqual(['OldRow', 'Bones x1 from goblin']);
    for (const p of await recent(game)) expect(JSON.stringify(p)).not.toMatch(/[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/);
  });
});
