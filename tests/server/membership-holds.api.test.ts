import { afterEach, describe, expect, it } from 'vitest';
import { useServerSuite } from '../support/suite';
import { backends, type Backend } from '../support/server';
import { directSql, insertGame } from '../support/fixtures';
import type { ApiClient } from '../support/api';
import { draftCast, draftWatcher, type DraftCast, type DraftWatcher } from '../support/draft';
import { DRAFT_MESSAGES } from '../../contract/draft';
import { SIGNUP_MESSAGES } from '../../contract/signupApi';

/**
 * Sign-ups, draft picks and team placement hold only clan members (docs/server.md §16, "Members
 * only"; docs/game-rules.md §17), over real HTTP and sockets on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: a kick or a leave withdraws the user's sign-ups in events whose
 * game has not started and takes them out of a running draft; a departed captain's turns are
 * picked by the clock at once; an apply or a draft start naming a non-member's sign-up is 409
 * (404 when it is gone); a draft_pick by or of a non-member is refused; /draft/end places no
 * non-member.
 */

describe.each(backends())('membership holds sign-ups, drafts and teams (%s)', (backend: Backend) => {
  const suite = useServerSuite(backend);
  const open: DraftWatcher[] = [];
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });
  /** A socket client in the draft room of `c`'s event. */
  const watcher = async (c: DraftCast, name: string, api: ApiClient) => {
    const w = await draftWatcher(suite.url, name, api);
    open.push(w);
    expect(typeof (await w.join(c.eventId))).not.toBe('string');
    return w;
  };
  let n = 0;
  const cast = () => draftCast(suite.url, `mh${backend.slice(0, 2)}${++n}`);
  const kick = async (c: DraftCast, userId: number) => expect((await c.owner.api.del(`/api/clan/${c.clanId}/members/${userId}`)).status).toBe(200);
  const leave = async (c: DraftCast, who: { api: ApiClient; userId: number }) => expect((await who.api.del(`/api/clan/${c.clanId}/members/${who.userId}`)).status).toBe(200);
  /** The events a user has sign-ups in, as stored. */
  const signedUpIn = async (userId: number) =>
    (await directSql(suite.env, 'SELECT event_id FROM signups WHERE user_id = ? ORDER BY event_id', [userId])).map((r) => Number(r.event_id));
  /** A team's members as [IGN, role], sorted. */
  const teamOf = async (c: DraftCast, teamId: number) => {
    const r = await c.owner.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/teams/${teamId}/members`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.team_members as { osrs_ign: string; role: string }[]).map((m) => [m.osrs_ign, m.role]).sort();
  };
  const setGameStatus = (gameId: number, status: string) => directSql(suite.env, 'UPDATE games SET status = ? WHERE id = ?', [status, gameId]);

  it('a kick or a leave withdraws sign-ups in events whose game has not started; a game in progress or finished keeps them; a Guest keeps theirs', async () => {
    const c = await cast();
    const [p1, p2, p3] = c.players;
    const events: Record<'pending' | 'running' | 'finished', number> = { pending: 0, running: 0, finished: 0 };
    for (const key of ['pending', 'running', 'finished'] as const) {
      const ev = await c.owner.api.post(`/api/clan/${c.clanId}/events/`, { name: `Holds ${key} ${n}`, start_datetime: '2031-06-01T18:00Z', signups_open: true });
      expect(ev.status, JSON.stringify(ev.body)).toBe(200);
      events[key] = ev.body.event.id;
      for (const p of [p1, p2, p3]) expect((await p.api.post(`/api/clan/${c.clanId}/events/${events[key]}/signups`, { osrs_ign_id: p.ignId })).status).toBe(201);
    }
    await insertGame(suite.env, events.pending, c.clanId, 'PENDING');
    await insertGame(suite.env, events.running, c.clanId, 'in-progress');
    await insertGame(suite.env, events.finished, c.clanId, 'finished');
    const all = [c.eventId, events.pending, events.running, events.finished];
    for (const p of [p1, p2, p3]) expect(await signedUpIn(p.userId)).toEqual(all);

    await kick(c, p1.userId);
    expect(await signedUpIn(p1.userId)).toEqual([events.running, events.finished]);
    await leave(c, p2);
    expect(await signedUpIn(p2.userId)).toEqual([events.running, events.finished]);
    // A demotion to Guest is no departure: a Guest is still a member.
    expect((await c.owner.api.put(`/api/clan/${c.clanId}/members/${p3.userId}/role`, { role: 'Guest' })).status).toBe(200);
    expect(await signedUpIn(p3.userId)).toEqual(all);

    const listed = (await c.member.api.get(`/api/clan/${c.clanId}/events/${c.eventId}/signups`)).body.signups.map((s: { ign: string }) => s.ign);
    expect(listed).toEqual([c.owner.ign, c.captain2.ign, p3.ign, c.players[3].ign]);
    // Back in the clan, nothing of the old sign-ups returns: a new one is needed.
    expect((await c.owner.api.post(`/api/clan/${c.clanId}/members`, { user_id: p1.userId, role: 'Member' })).status).toBe(200);
    expect(await signedUpIn(p1.userId)).toEqual([events.running, events.finished]);
  });

  it('a member who leaves or is kicked mid-draft leaves the pool; their pick goes with them and the later turns stay', async () => {
    const c = await cast();
    const [p1, p2, p3, p4] = c.players.map((p) => c.signup[p.ign]);
    const m = (await c.member.api.post(`/api/clan/${c.clanId}/events/${c.eventId}/signups`, { osrs_ign_id: c.member.ignId })).body.signup.id as number;
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [t1, t2] = started.body.draft_state.order as number[];
    expect(started.body.draft_state.pool).toEqual([p2, p3, p1, p4, m]);
    const room = await watcher(c, 'member', c.member.api);
    const cap1 = await watcher(c, 'cap1', c.owner.api);
    const cap2 = await watcher(c, 'cap2', c.captain2.api);

    // The head of the pool leaves: out of the pool at once, in the room and over HTTP.
    await leave(c, c.players[1]);
    expect(await room.stateWhere((s) => !s.pool.includes(p2), 5000, 0)).toMatchObject({ pool: [p3, p1, p4, m], on_the_clock: t1, picks: [] });
    expect((await c.owner.api.get(c.path)).body.draft_state.pool).toEqual([p3, p1, p4, m]);
    expect(await cap1.pick(c.eventId, p2)).toBe(DRAFT_MESSAGES.notInPool);

    // The last pick's player is kicked: the pick goes and that team is on the clock again, with a full clock.
    expect(await cap1.pick(c.eventId, p3, t1)).toBeNull();
    await room.stateWhere((s) => s.picks.length === 1, 5000, 0);
    const since = room.got.length;
    await kick(c, c.players[2].userId);
    const back = await room.stateWhere(() => true, 5000, since);
    expect(back).toMatchObject({ picks: [], on_the_clock: t1, pool: [p1, p4, m], round: 1 });
    expect(Date.parse(back.deadline!) - Date.now()).toBeGreaterThan(50_000);

    // An earlier pick's player is kicked: that team is one short, the turn on the clock stays.
    expect(await cap1.pick(c.eventId, p1, t1)).toBeNull();
    expect(await cap2.pick(c.eventId, p4, t2)).toBeNull();
    const turn = await room.stateWhere((s) => s.picks.length === 2, 5000, 0);
    expect(turn).toMatchObject({ on_the_clock: t2, round: 2, pool: [m] });
    const beforeGap = room.got.length;
    await kick(c, c.players[0].userId);
    const gap = await room.stateWhere(() => true, 5000, beforeGap);
    expect(gap).toMatchObject({ on_the_clock: t2, round: 2, pool: [m], deadline: turn.deadline });
    expect(gap.picks).toMatchObject([{ team_id: t2, signup_id: p4 }]);
    expect(await cap2.pick(c.eventId, m, t2)).toBeNull();
    expect((await room.stateWhere((s) => s.status === 'done', 5000, 0)).picks.map((p) => [p.team_id, p.signup_id])).toEqual([[t2, p4], [t2, m]]);
    expect(await teamOf(c, t1)).toEqual([[c.owner.ign, 'Leader']]);
    expect(await teamOf(c, t2)).toEqual([[c.captain2.ign, 'Leader'], [c.member.ign, 'Member'], [c.players[3].ign, 'Member']].sort());
  }, 30_000);

  it('a kicked captain is replaced by the clock: each turn of their team is picked at once; their draft_pick is refused', async () => {
    const c = await cast();
    const [p1, p2, p3, p4] = c.players.map((p) => c.signup[p.ign]);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.captain2.ign], c.signup[c.owner.ign]], pick_seconds: 600 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [tc2, to] = started.body.draft_state.order as number[];
    expect(started.body.draft_state.on_the_clock).toBe(tc2);
    const room = await watcher(c, 'member', c.member.api);
    const owner = await watcher(c, 'owner', c.owner.api);
    const departed = await watcher(c, 'captain2', c.captain2.api);

    const kickedAt = Date.now();
    await kick(c, c.captain2.userId);
    // Picked by the clock at once, not after the 600 s: the head of the pool, for the departed captain's team.
    const first = await room.stateWhere((s) => s.picks.length === 1, 10_000, 0);
    expect(first.picks).toMatchObject([{ team_id: tc2, signup_id: p2, auto: true }]);
    expect(Date.parse(first.picks[0].at) - kickedAt).toBeLessThan(10_000);
    expect(first).toMatchObject({ on_the_clock: to, pool: [p3, p1, p4] });
    expect(await departed.pick(c.eventId, p3)).toBe(DRAFT_MESSAGES.notMember);
    expect((await c.owner.api.get(c.path)).body.draft_state.picks).toHaveLength(1);

    // The owner picks twice (the snake), then the departed captain's turn is picked by the clock again at once.
    expect(await owner.pick(c.eventId, p3, to)).toBeNull();
    expect(await owner.pick(c.eventId, p4, to)).toBeNull();
    const done = await room.stateWhere((s) => s.status === 'done', 10_000, 0);
    expect(done.picks.map((p) => [p.team_id, p.signup_id, p.auto])).toEqual([[tc2, p2, true], [to, p3, false], [to, p4, false], [tc2, p1, true]]);
    // The departed captain is on no team, as Leader or otherwise; their team keeps the clock's picks.
    expect(await teamOf(c, tc2)).toEqual([[c.players[0].ign, 'Member'], [c.players[1].ign, 'Member']]);
    expect(await teamOf(c, to)).toEqual([[c.owner.ign, 'Leader'], [c.players[2].ign, 'Member'], [c.players[3].ign, 'Member']]);
    expect(await signedUpIn(c.captain2.userId)).toEqual([]);
  }, 30_000);

  it('a captain who leaves a paused draft is replaced by the clock on resume, and again when an undo gives their team the turn back', async () => {
    const c = await cast();
    const [p1, p2, p3] = c.players.map((p) => c.signup[p.ign]);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.captain2.ign], c.signup[c.owner.ign]], pick_seconds: 600 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [tc2, to] = started.body.draft_state.order as number[];
    const room = await watcher(c, 'member', c.member.api);
    const owner = await watcher(c, 'owner', c.owner.api);
    expect((await c.owner.api.post(`${c.path}/pause`)).status).toBe(200);
    await room.stateWhere((s) => s.status === 'paused', 5000, 0);
    const beforeLeave = room.got.length;
    await leave(c, c.captain2);
    // The departure's draft_state: still paused, nothing picked.
    expect(await room.stateWhere(() => true, 5000, beforeLeave)).toMatchObject({ status: 'paused', picks: [], on_the_clock: null });
    // Nothing is picked while paused; on resume the clock picks for the departed captain's team at once.
    const resumed = await c.owner.api.post(`${c.path}/resume`);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(Date.parse(resumed.body.draft_state.deadline) - Date.now()).toBeLessThan(5_000);
    const auto = await room.stateWhere((s) => s.picks.length === 1, 10_000, 0);
    expect(auto.picks).toMatchObject([{ team_id: tc2, signup_id: p2, auto: true }]);
    expect(auto.on_the_clock).toBe(to);
    expect(await owner.pick(c.eventId, p3, to)).toBeNull();
    // Undo twice: the owner's pick, then the clock's; the departed captain's turn is picked by the clock again at once.
    const undone = await c.owner.api.post(`${c.path}/undo`);
    expect(undone.body.draft_state).toMatchObject({ on_the_clock: to, picks: [{ team_id: tc2, signup_id: p2 }] });
    expect(Date.parse(undone.body.draft_state.deadline) - Date.now()).toBeGreaterThan(500_000);
    const since = room.got.length;
    const again = await c.owner.api.post(`${c.path}/undo`);
    expect(again.body.draft_state).toMatchObject({ on_the_clock: tc2, picks: [] });
    const repicked = await room.stateWhere((s) => s.picks.length === 1, 10_000, since);
    expect(repicked.picks).toMatchObject([{ team_id: tc2, signup_id: p2, auto: true }]);
    expect(repicked).toMatchObject({ on_the_clock: to, pool: [p3, p1, c.signup[c.players[3].ign]] });
  }, 30_000);

  it('in a game under way a departed member keeps the sign-up, but is out of the pool, cannot be picked and is not placed by /draft/end', async () => {
    const c = await cast();
    const [p1, p2, p3, p4] = c.players.map((p) => c.signup[p.ign]);
    const started = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], c.signup[c.captain2.ign]], pick_seconds: 600 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [t1, t2] = started.body.draft_state.order as number[];
    const room = await watcher(c, 'member', c.member.api);
    const cap1 = await watcher(c, 'cap1', c.owner.api);
    const cap2 = await watcher(c, 'cap2', c.captain2.api);
    expect(await cap1.pick(c.eventId, p2, t1)).toBeNull();
    // The event's game starts meanwhile (a bare game row, in progress).
    await insertGame(suite.env, c.eventId, c.clanId, 'in-progress');
    await kick(c, c.players[1].userId);
    await leave(c, c.players[0]);
    expect(await signedUpIn(c.players[1].userId)).toEqual([c.eventId]);
    expect(await signedUpIn(c.players[0].userId)).toEqual([c.eventId]);
    const state = await room.stateWhere((s) => !s.pool.includes(p1), 5000, 0);
    expect(state).toMatchObject({ on_the_clock: t2, pool: [p3, p4] });
    expect(state.picks).toMatchObject([{ team_id: t1, signup_id: p2 }]);
    expect(await cap2.pick(c.eventId, p1)).toBe(DRAFT_MESSAGES.playerLeft);
    expect(await cap2.pick(c.eventId, p3, t2)).toBeNull();
    const ended = await c.owner.api.post(`${c.path}/end`);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.draft_state.picks).toHaveLength(2);
    // The departed player's pick is not placed: team 1 is its captain alone.
    expect(await teamOf(c, t1)).toEqual([[c.owner.ign, 'Leader']]);
    expect(await teamOf(c, t2)).toEqual([[c.captain2.ign, 'Leader'], [c.players[2].ign, 'Member']]);
    const rows = await directSql(suite.env, 'SELECT team_id FROM signups WHERE id = ?', [p2]);
    expect(rows[0].team_id).toBeNull();
  }, 30_000);

  it('an apply or a draft start naming a non-member sign-up answers 409, a withdrawn one 404, and makes nothing', async () => {
    const c = await cast();
    const [p1, p2] = c.players.map((p) => c.signup[p.ign]);
    const base = `/api/clan/${c.clanId}/events/${c.eventId}`;
    const gameId = await insertGame(suite.env, c.eventId, c.clanId, 'READY');
    const balance = async () => {
      const r = await c.owner.api.post(`${base}/teams/balance`, { team_count: 2 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.proposal as { teams: { signup_ids: number[] }[] };
    };
    const earlier = await balance();
    // A player leaves before the game starts: their sign-up is withdrawn.
    await leave(c, c.players[0]);
    const gone = await c.owner.api.post(`${base}/teams/balance/apply`, { proposal: earlier });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: SIGNUP_MESSAGES.notFound(p1) });
    const goneCaptain = await c.owner.api.post(c.path, { captain_signup_ids: [c.signup[c.owner.ign], p1] });
    expect(goneCaptain.status).toBe(404);
    expect(goneCaptain.body).toEqual({ error: DRAFT_MESSAGES.captainNotFound(p1) });

    // A player kicked while the game is in progress keeps the sign-up; the game is then reset (READY).
    const proposal = await balance();
    expect(proposal.teams.flatMap((t) => t.signup_ids)).toContain(p2);
    await setGameStatus(gameId, 'in-progress');
    await kick(c, c.players[1].userId);
    await setGameStatus(gameId, 'READY');
    const left = await c.owner.api.post(`${base}/teams/balance/apply`, { proposal });
    expect(left.status).toBe(409);
    expect(left.body).toEqual({ error: SIGNUP_MESSAGES.leftClan(p2) });
    const leftCaptain = await c.owner.api.post(c.path, { captain_signup_ids: [p2, c.signup[c.owner.ign]] });
    expect(leftCaptain.status).toBe(409);
    expect(leftCaptain.body).toEqual({ error: DRAFT_MESSAGES.captainLeft(p2) });
    // Nothing was made by the refusals: no team, no draft, the kicked player on no team.
    expect((await c.owner.api.get(`${base}/teams/`)).body.teams).toEqual([]);
    expect((await c.owner.api.get(c.path)).body.draft_state).toBeNull();

    // The balance now leaves the non-member out, and its proposal applies.
    const fresh = await balance();
    expect(fresh.teams.flatMap((t) => t.signup_ids)).not.toContain(p2);
    const applied = await c.owner.api.post(`${base}/teams/balance/apply`, { proposal: fresh });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.placed_count).toBe(4);
    const placed = await directSql(suite.env, 'SELECT COUNT(*) AS n FROM team_members WHERE event_id = ? AND ign_id = ?', [c.eventId, c.players[1].ignId]);
    expect(Number(placed[0].n)).toBe(0);
  }, 30_000);
});
