import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { directSql } from '../support/sql';
import type { ApiClient } from '../support/api';
import { castOf, connect, newGame, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { TEAM_BAD_DISCORD_ROLE } from '../../contract/team';

/**
 * Team pings (docs/server.md §19 "Team pings"): a team's `discord_role_id` (17 to 20 digits or
 * null) in team create, edit and list; the event's Discord setting `ping_teams` (false by
 * default, in every answer); and what Discord receives: with ping_teams on, a review of a team's
 * proof carries content '<@&{role}>' and allowed_mentions {parse: [], roles: [role]} (that team's
 * role only), an approval that lets the team roll adds '{team} may roll.'; a relief task
 * (docs/server.md §15) pings the same way and never says the team may roll (it leaves the team a
 * task to prove); rolls, status changes and everything with ping_teams off keep allowed_mentions
 * {parse: []} and no content.
 */

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];
const RED_ROLE = '112233445566778899';
const BLUE_ROLE = '998877665544332211';
let hookSerial = 5000;

describe.each(backends())('team pings (%s)', (backend) => {
  const stand = new DiscordWebhookStandIn();
  const env: Record<string, string> = {};
  // The stand-in first: the server is started with its origin (useServerSuite reads `env` when it starts).
  beforeAll(async () => {
    await stand.start();
    Object.assign(env, stand.serverEnv({ DISCORD_ROLL_WINDOW_MS: '300' }));
  });
  afterAll(() => stand.stop());
  const suite = useServerSuite(backend, env);
  let cast: Cast;
  const open: Watcher[] = [];
  afterAll(() => {
    for (const w of open) w.close();
  });

  beforeAll(async () => {
    cast = await castOf(suite.url, `pings-${backend}`);
    const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} ping task ${i + 1},${t}`))];
    const form = new FormData();
    form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
    expect((await cast.owner.call('POST', `/api/clan/${cast.clanId}/tasks/upload_csv`, form)).status).toBe(200);
  });

  const teamsPath = (game: TestGame) => `/api/clan/${cast.clanId}/events/${game.eventId}/teams`;
  const discordPath = (game: TestGame) => `/api/clan/${cast.clanId}/events/${game.eventId}/discord`;
  const bodies = (id: string) => stand.accepted(id).map((p) => p.body);

  it('a team takes a Discord role id of 17 to 20 digits or null, in create, edit and every answer', async () => {
    const game = await newGame(cast, { start: false });
    for (const bad of ['1234567890123456', '123456789012345678901', '12345678901234567a', 12345678901234567]) {
      const r = await cast.owner.post(`${teamsPath(game)}/`, { name: 'Green Team', color: '#00aa00', discord_role_id: bad });
      expect(r, String(bad)).toMatchObject({ status: 400, body: { error: TEAM_BAD_DISCORD_ROLE } });
    }
    const made = await cast.owner.post(`${teamsPath(game)}/`, { name: 'Green Team', color: '#00aa00', discord_role_id: '12345678901234567' });
    expect(made.status).toBe(200);
    expect(made.body.team).toMatchObject({ name: 'Green Team', discord_role_id: '12345678901234567' });
    const green = made.body.team.id as number;
    expect((await cast.owner.post(`${teamsPath(game)}/`, { name: 'Plain Team', color: '#00aaaa' })).body.team.discord_role_id).toBeNull();
    // Edit: absent keeps it, a new one replaces it, '' or null removes it; a bad one is refused.
    expect((await cast.owner.put(`${teamsPath(game)}/${green}`, { name: 'Green Team', color: '#00bb00' })).body.team.discord_role_id).toBe('12345678901234567');
    expect((await cast.owner.put(`${teamsPath(game)}/${green}`, { name: 'Green Team', color: '#00bb00', discord_role_id: '12345678901234567890' })).body.team.discord_role_id).toBe('12345678901234567890');
    expect(await cast.owner.put(`${teamsPath(game)}/${green}`, { name: 'Green Team', color: '#00bb00', discord_role_id: 'everyone' })).toMatchObject({ status: 400, body: { error: TEAM_BAD_DISCORD_ROLE } });
    const listed = (await cast.member.get(`${teamsPath(game)}/`)).body.teams as { name: string; discord_role_id: string | null }[];
    expect(listed.find((t) => t.name === 'Green Team')!.discord_role_id).toBe('12345678901234567890');
    expect(listed.find((t) => t.name === 'Red Team')!.discord_role_id).toBeNull();
    expect((await cast.owner.put(`${teamsPath(game)}/${green}`, { name: 'Green Team', color: '#00bb00', discord_role_id: '' })).body.team.discord_role_id).toBeNull();
    expect((await cast.owner.put(`${teamsPath(game)}/${green}`, { name: 'Green Team', color: '#00bb00', discord_role_id: null })).body.team.discord_role_id).toBeNull();
  });

  it('ping_teams is false unless set, and every answer carries it', async () => {
    const game = await newGame(cast, { start: false });
    const hook = stand.webhook(String(++hookSerial));
    expect((await cast.owner.put(discordPath(game), { webhook_url: hook })).body.discord.ping_teams).toBe(false);
    expect((await cast.owner.put(discordPath(game), { ping_teams: true })).body.discord.ping_teams).toBe(true);
    expect((await cast.owner.get(discordPath(game))).body.discord.ping_teams).toBe(true);
    expect(await cast.owner.put(discordPath(game), { ping_teams: 'yes' })).toMatchObject({ status: 400, body: { error: 'ping_teams must be true or false.' } });
  });

  /**
   * A proof game whose teams have roles (Red RED_ROLE, Blue BLUE_ROLE), posting to a fresh webhook
   * with ping_teams `ping`, started, and Red rolled once by its Leader's socket: the game, the
   * webhook id, the Leader's socket and the version after the roll.
   */
  async function rolledRoleGame(ping: boolean) {
    const game = await newGame(cast, { start: false, proof: true });
    expect((await cast.owner.put(`${teamsPath(game)}/${game.team1}`, { name: 'Red Team', color: '#aa0000', discord_role_id: RED_ROLE })).status).toBe(200);
    expect((await cast.owner.put(`${teamsPath(game)}/${game.team2}`, { name: 'Blue Team', color: '#0000aa', discord_role_id: BLUE_ROLE })).status).toBe(200);
    const id = String(++hookSerial);
    expect((await cast.owner.put(discordPath(game), { webhook_url: stand.webhook(id), ping_teams: ping })).status).toBe(200);
    const leader = await connect(suite.url, 'leader', cast.owner);
    open.push(leader);
    await leader.join(game.gameId);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    await leader.version(1);
    const version = leader.held!.version;
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    await leader.version(version + 1);
    return { game, id, leader, version: version + 1 };
  }

  /**
   * A proof game whose teams have roles (Red RED_ROLE, Blue BLUE_ROLE), posting to a fresh webhook
   * with ping_teams `ping`: started, Red rolls (socket), its proof is denied, sent again and
   * approved; answers the webhook id once the 5 posts arrived (start, roll, denial, approval, pause).
   */
  async function reviewedGame(ping: boolean): Promise<string> {
    const { game, id } = await rolledRoleGame(ping);
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c83232' } }).png().toBuffer();
    const submit = async (by: ApiClient) => {
      const form = new FormData();
      form.append('team_id', String(game.team1));
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
      const r = await by.call('POST', `${game.path}/submissions`, form);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.submission.id as number;
    };
    const review = (sid: number, body: object) => cast.owner.put(`/api/clan/${cast.clanId}/submissions/${sid}/review`, body);
    expect((await review(await submit(cast.member), { decision: 'deny', reason: 'Blurry' })).status).toBe(200);
    expect((await review(await submit(cast.member), { decision: 'approve' })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await stand.until(() => stand.accepted(id).length >= 5, 20_000, '5 posts');
    return id;
  }

  /**
   * A proof game like reviewedGame's (roles on both teams, a fresh webhook with ping_teams `ping`):
   * started, Red rolls, its proof is denied, relief is turned on (1 hour) and Red's arrival moved
   * 2 hours back, Red's Leader asks for relief (socket request_relief), and the game is paused;
   * answers the webhook's posts once the relief and the pause arrived.
   */
  async function relievedGame(ping: boolean): Promise<any[]> {
    const { game, id, leader } = await rolledRoleGame(ping);
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#c83232' } }).png().toBuffer();
    const form = new FormData();
    form.append('team_id', String(game.team1));
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
    const submitted = await cast.member.call('POST', `${game.path}/submissions`, form);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/submissions/${submitted.body.submission.id}/review`, { decision: 'deny', reason: 'Blurry' })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/rules`, { relief_after_hours: 1 })).status).toBe(200);
    await directSql(suite.env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - 2 * 3_600_000).toISOString(), game.gameId, game.team1]);
    const version = (await cast.owner.get(`/api/public/game/${game.gameId}`)).body.game.version as number;
    await leader.version(version);
    const mark = leader.got.length;
    leader.socket.emit('request_relief', { game_id: game.gameId, team_id: game.team1 });
    const r = await leader.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
    expect(r.event, JSON.stringify(r.payload)).toBe('game_state_update');
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await stand.until(() => bodies(id).some((b) => b.embeds?.[0]?.title === 'New task (relief)') && bodies(id).some((b) => b.embeds?.[0]?.title === 'Game paused'), 20_000, 'the relief and the pause');
    return bodies(id);
  }

  it('with ping_teams on, a relief task pings its team\'s role only and never says the team may roll; the rest pings no one', async () => {
    const posts = await relievedGame(true);
    const relief = posts.find((b) => b.embeds[0].title === 'New task (relief)');
    expect(relief.content).toBe(`<@&${RED_ROLE}>`);
    expect(relief.allowed_mentions).toEqual({ parse: [], roles: [RED_ROLE] });
    expect(relief.embeds[0].description).toMatch(/^Red Team was stuck on square \d+ for 2 h: new task /);
    expect(JSON.stringify(relief)).not.toContain('may roll');
    expect(JSON.stringify(relief)).not.toContain(BLUE_ROLE);
    for (const quiet of posts.filter((b) => !['New task (relief)', 'Proof denied'].includes(b.embeds[0].title))) {
      expect(quiet.allowed_mentions).toEqual({ parse: [] });
      expect(quiet.content).toBeUndefined();
    }
    // Nothing of this game says Red may roll: relief leaves it a task to prove.
    expect(posts.some((b) => JSON.stringify(b).includes('may roll'))).toBe(false);
  });

  it('with ping_teams off, a relief task pings no one', async () => {
    const posts = await relievedGame(false);
    expect(posts.some((b) => b.embeds[0].title === 'New task (relief)')).toBe(true);
    for (const b of posts) {
      expect(b.allowed_mentions).toEqual({ parse: [] });
      expect(b.content).toBeUndefined();
    }
  });

  it('with ping_teams on, reviews of a team ping its role only; the approval that lets it roll says so; the rest pings no one', async () => {
    const id = await reviewedGame(true);
    const [started, rolled, denied, approved, paused] = bodies(id);
    for (const quiet of [started, rolled, paused]) {
      expect(quiet.allowed_mentions).toEqual({ parse: [] });
      expect(quiet.content).toBeUndefined();
    }
    expect(rolled.embeds[0].title).toBe('Red Team');
    for (const pinged of [denied, approved]) {
      expect(pinged.content).toBe(`<@&${RED_ROLE}>`);
      expect(pinged.allowed_mentions).toEqual({ parse: [], roles: [RED_ROLE] });
      expect(JSON.stringify(pinged)).not.toContain(BLUE_ROLE);
    }
    expect(denied.embeds[0].title).toBe('Proof denied');
    expect(approved.embeds[0].title).toBe('Proof approved');
    expect(approved.embeds[0].description).toMatch(/\nApproved by sock-owner-pings-\w+\.\nRed Team may roll\.$/);
    expect(denied.embeds[0].description).not.toContain('may roll');
  });

  it('with ping_teams off, the same reviews ping no one and add no line', async () => {
    const id = await reviewedGame(false);
    for (const b of bodies(id)) {
      expect(b.allowed_mentions).toEqual({ parse: [] });
      expect(b.content).toBeUndefined();
    }
    expect(bodies(id)[3].embeds[0].description).not.toContain('may roll');
  });
});
