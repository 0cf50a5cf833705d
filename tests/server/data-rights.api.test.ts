import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, newGame, watchersOf, type Cast, type TestGame } from '../support/liveSocket';
import { AccountExportSchema, DATA_RIGHTS_TEXTS, DELETED_USER_NAME } from '../../contract/dataRights';
import { PROOF_LOG } from '../../contract/submission';

/**
 * Data rights over real HTTP on SQLite and PostgreSQL (docs/server.md §18 "Data rights"): the
 * export's headers and contents (profile, IGNs, memberships, join requests, sign-ups, the proofs
 * sent without image bytes, the log lines and Dink posts naming the user's IGNs), every refusal of
 * DELETE /api/user/me with its exact text and nothing changed, and a deletion's effects: every
 * session and socket ends, IGNs, memberships, join requests and sign-ups go, a finished game's
 * team keeps the IGN as played, and past submissions and reviews read 'Deleted user'.
 */

const expectError = (r: Answer, status: number, error: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toEqual({ error });
};

describe.each(backends())('data rights (%s)', (backend) => {
  const suite = useServerSuite(backend);
  const { open, watcher } = watchersOf(() => suite.url);
  let cast: Cast;
  /** The member who leaves: an Admin of the cast's clan, IGN PlainMember. */
  let leaverName: string;
  let leaverId: number;
  let ownerId: number;
  let leader2Id: number;
  let clanName: string;

  const now = () => new Date().toISOString();
  /** Stores a reviewed proof of `game`'s team 1 (as a submit and a review would): sent by `by` as `ign`, approved by `reviewer`. */
  async function storedProof(game: TestGame, by: number, ign: string, reviewer: number): Promise<number> {
    await directSql(suite.env, `INSERT INTO submissions (game_id, clan_id, team_id, square_index, square_since, task_description, task_difficulty,
      submitted_by, submitted_ign, note, image_key, image_type, thumb_key, thumb_type, status, reviewer_id, reason, created_at, reviewed_at)
      VALUES (?, ?, ?, 5, ?, 'Catch a shrimp', 'EASY', ?, ?, 'my note', 'k/img', 'image/webp', 'k/thumb', 'image/webp', 'approved', ?, NULL, ?, ?)`,
    [game.gameId, cast.clanId, game.team1, now(), by, ign, reviewer, now(), now()]);
    return Number((await directSql(suite.env, 'SELECT max(id) AS id FROM submissions'))[0].id);
  }
  const log = (gameId: number, message: string, team = 'Red Team') =>
    directSql(suite.env, 'INSERT INTO game_log (game_id, timestamp, team_name, team_color, message) VALUES (?, ?, ?, ?, ?)', [gameId, now(), team, '#aa0000', message]);
  /** The IGNs on team `teamId` of event `eventId`, as a manager reads them, sorted. */
  async function teamIgns(eventId: number, teamId: number): Promise<string[]> {
    const r = await cast.owner.get(`/api/clan/${cast.clanId}/events/${eventId}/teams/${teamId}/members`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.team_members as { osrs_ign: string }[]).map((m) => m.osrs_ign).sort();
  }
  const idOf = async (api: ApiClient) => (await api.get('/api/user/me')).body.id as number;

  beforeAll(async () => {
    cast = await castOf(suite.url, `dr-${backend}`);
    clanName = `Socket Clan dr-${backend}`;
    leaverName = `sock-member-dr-${backend}`;
    [leaverId, ownerId, leader2Id] = await Promise.all([idOf(cast.member), idOf(cast.owner), idOf(cast.leader2)]);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${leaverId}/role`, { role: 'Admin' })).status).toBe(200);
  });

  afterAll(() => {
    for (const w of open) w.close();
  });

  it('signed out: the export and the deletion answer 401', async () => {
    const anon = new ApiClient(suite.url);
    expect((await anon.get('/api/user/me/export')).status).toBe(401);
    expect((await anon.call('DELETE', '/api/user/me', { confirm: 'x' })).status).toBe(401);
  });

  it('refuses a confirmation that is not the username, and the sole Owner of a clan, changing nothing', async () => {
    for (const body of [{ confirm: 'wrong' }, { confirm: leaverName.toUpperCase() }, { confirm: ` ${leaverName}` }, {}, { confirm: 5 }]) {
      expectError(await cast.member.call('DELETE', '/api/user/me', body), 400, DATA_RIGHTS_TEXTS.confirm);
    }
    const ownerName = (await cast.owner.get('/api/user/me')).body.username;
    expectError(await cast.owner.call('DELETE', '/api/user/me', { confirm: ownerName }), 409, DATA_RIGHTS_TEXTS.soleOwner(clanName));
    expect(DATA_RIGHTS_TEXTS.soleOwner(clanName)).toBe(`Transfer ownership of ${clanName} or disband it first.`);
    expect((await cast.owner.get('/api/user/me')).status).toBe(200);
    expect((await cast.member.get('/api/user/me')).status).toBe(200);
  });

  it('exports the user\'s data as a JSON attachment; deletion waits for the game; then it ends every session and keeps past games', async () => {
    // A game the leaver plays (PlainMember on Red Team), a proof they sent and one they reviewed.
    const game = await newGame(cast, { start: true });
    const sent = await storedProof(game, leaverId, 'PlainMember', ownerId);
    const reviewed = await storedProof(game, leader2Id, 'LeaderTwo', leaverId);
    await log(game.gameId, PROOF_LOG.approved(leaverName, 'Red Team'));
    await log(game.gameId, 'Approved automatically from Dink: Giant key (plainmember).');
    await log(game.gameId, 'PlainMemberX is not them.');
    await directSql(suite.env, `INSERT INTO dink_posts (event_id, at, player_name, type, summary, outcome) VALUES (?, ?, 'plainmember', 'LOOT', 'Giant key', 'approved'),
      (?, ?, 'Somebody', 'LOOT', 'Bones', 'no_match')`, [game.eventId, now(), game.eventId, now()]);
    // A second IGN on no team, a sign-up and a team place in an event without a game, a join request.
    const alt = await cast.member.post('/api/user/igns', { ign: 'MemberAlt' });
    expect(alt.status).toBe(200);
    const ev = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Next Ladder', start_datetime: '2031-07-01T18:00Z', signups_open: true });
    const nextEvent = ev.body.event.id as number;
    const signup = await cast.member.post(`/api/clan/${cast.clanId}/events/${nextEvent}/signups`, { osrs_ign_id: cast.ign.member, note: 'Any team' });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const team = await cast.owner.post(`/api/clan/${cast.clanId}/events/${nextEvent}/teams/`, { name: 'Future Team', color: '#00aa00' });
    const futureTeam = team.body.team.id as number;
    expect((await cast.owner.post(`/api/clan/${cast.clanId}/events/${nextEvent}/teams/${futureTeam}/members`, { osrs_ign_id: cast.ign.member, role: 'Member' })).status).toBe(200);
    const other = await cast.outsider.post('/api/clans', { clan_name: `Other Clan dr-${backend}` });
    await directSql(suite.env, "INSERT INTO join_requests (clan_id, user_id, status, reason, created_at) VALUES (?, ?, 'pending', NULL, ?)", [other.body.clan_id, leaverId, now()]);

    const exported = await cast.member.get('/api/user/me/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/json/);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.json"$/);
    const data = v.parse(AccountExportSchema, exported.body);
    expect(data.profile).toMatchObject({ id: leaverId, username: leaverName, discord_username: leaverName });
    expect(data.igns.map((i) => i.ign).sort()).toEqual(['MemberAlt', 'PlainMember']);
    expect(data.memberships).toEqual([expect.objectContaining({ clan_id: cast.clanId, clan_name: clanName, role: 'Admin' })]);
    expect(data.join_requests).toEqual([expect.objectContaining({ clan_id: other.body.clan_id, status: 'pending' })]);
    expect(data.signups).toEqual([expect.objectContaining({ event_id: nextEvent, event_name: 'Next Ladder', ign: 'PlainMember', note: 'Any team', wants_leader: false })]);
    expect(data.submissions.map((s) => s.id)).toEqual([sent]);
    expect(data.submissions[0]).toMatchObject({ game_id: game.gameId, square_index: 5, status: 'approved', image_url: `/api/submissions/${sent}/image`, clan_name: clanName });
    expect(JSON.stringify(data.submissions)).not.toMatch(/k\/img|base64/);
    expect(data.log_entries.map((e) => e.message)).toEqual(['Approved automatically from Dink: Giant key (plainmember).']);
    expect(data.dink_posts.map((p) => p.player_name)).toEqual(['plainmember']);

    // Playing a game that is not finished: refused, nothing changed.
    const eventName = (await cast.owner.get(game.path)).body.game.event_name as string;
    expectError(await cast.member.call('DELETE', '/api/user/me', { confirm: leaverName }), 409, DATA_RIGHTS_TEXTS.playing('PlainMember', eventName));
    expect(DATA_RIGHTS_TEXTS.playing('PlainMember', eventName)).toBe(`Your IGN 'PlainMember' is on a team in ${eventName}, a game that is not finished. Delete your account once the game has finished.`);
    expect((await cast.member.get('/api/user/me')).status).toBe(200);

    // The game finishes; a second session and a socket of the leaver are open.
    await directSql(suite.env, "UPDATE games SET status = 'finished' WHERE id = ?", [game.gameId]);
    const elsewhere = await new ApiClient(suite.url).devLogin(leaverName);
    const socket = await watcher('leaver', cast.member);
    const gone = new Promise<void>((resolve) => socket.socket.once('disconnect', () => resolve()));
    const deleted = await cast.member.call('DELETE', '/api/user/me', { confirm: leaverName });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    await gone;

    // Every session ended: the old cookie of each is 401.
    const stale = new ApiClient(suite.url);
    stale.cookies.set('sid', [...elsewhere.cookies.values()][0]);
    expect((await stale.get('/api/user/me')).status).toBe(401);
    expect((await elsewhere.get('/api/user/me/export')).status).toBe(401);
    expect(cast.member.cookies.has('sid')).toBe(false);

    // IGNs, memberships, join requests and sign-ups are gone; the future team lost its member.
    const members = (await cast.owner.get(`/api/clan/${cast.clanId}/members`)).body.members as { member_id: number }[];
    expect(members.map((m) => m.member_id)).not.toContain(leaverId);
    expect(await directSql(suite.env, 'SELECT ign FROM igns WHERE user_id = ?', [leaverId])).toEqual([{ ign: 'PlainMember' }]);
    for (const table of ['clan_memberships', 'join_requests', 'signups', 'sessions', 'discord_identities']) {
      expect(await directSql(suite.env, `SELECT id FROM ${table} WHERE user_id = ?`, [leaverId]), table).toEqual([]);
    }
    expect(await teamIgns(nextEvent, futureTeam)).toEqual([]);

    // The finished game keeps the IGN as played, on its team.
    expect(await teamIgns(game.eventId, game.team1)).toEqual(['OwnerA', 'PlainMember']);
    const played = await cast.owner.get(game.path);
    expect(played.status).toBe(200);
    expect(played.body.game.status).toBe('finished');

    // Past submissions and reviews read 'Deleted user'; so do the review lines of the log.
    const subs = (await cast.owner.get(`${game.path}/submissions`)).body.submissions as { id: number; submitted_by: { username: string; ign: string }; reviewer: { username: string } | null }[];
    expect(subs.find((s) => s.id === sent)!.submitted_by).toMatchObject({ username: DELETED_USER_NAME, ign: 'PlainMember' });
    expect(subs.find((s) => s.id === reviewed)!.reviewer).toMatchObject({ username: DELETED_USER_NAME });
    const messages = (played.body.game.log_entries as { message: string }[]).map((e) => e.message);
    expect(messages).toContain(PROOF_LOG.approved(DELETED_USER_NAME, 'Red Team'));
    expect(messages.some((m) => m.includes(leaverName))).toBe(false);
    expect(JSON.stringify(subs)).not.toContain(leaverName);

    // The deleted account is neither offered nor added by Add Member.
    const search = await cast.owner.get(`/api/clan/${cast.clanId}/available_members?q=${encodeURIComponent(DELETED_USER_NAME)}`);
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    expect((search.body.available_users as { id: number }[]).map((u) => u.id)).not.toContain(leaverId);
    expectError(await cast.owner.post(`/api/clan/${cast.clanId}/members`, { user_id: leaverId, role: 'Member' }), 404, `User ID ${leaverId} not found.`);

    // Signing in again under the same name is a new account with nothing of the old one.
    const again = await new ApiClient(suite.url).devLogin(leaverName);
    const me = (await again.get('/api/user/me')).body;
    expect(me.id).not.toBe(leaverId);
    expect(me.igns).toEqual([]);
    expect(me.clan_memberships_list).toEqual([]);
  });
});
