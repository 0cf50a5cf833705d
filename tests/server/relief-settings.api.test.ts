import { beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { autoSplit, countsToSettings } from '../../contract/game';
import { GameAnswerSchema, PublicGameAnswerSchema } from '../../contract/gameApi';
import { castOf, newGame, stored, type Cast } from '../support/liveSocket';

/**
 * The relief settings (docs/server.md §15): relief_after_hours (null = off, the default, else
 * 1..168) and relief_max_per_team (0..10, default 2) in the create payload and every game shape,
 * and PUT .../rules taking any subset of proof_required, relief_after_hours and
 * relief_max_per_team, absent fields keeping their value, a value out of range 400.
 */
describe.each(backends())('relief settings (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let cast: Cast;
  let serial = 0;

  beforeAll(async () => {
    cast = await castOf(suite.url, `relief-${backend}`);
  });

  /** Creates an event (no teams) and posts its game with `extra` settings; answers the raw answer and the game path. */
  async function create(extra: Record<string, unknown>) {
    const ev = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: `Relief ${++serial}`, start_datetime: '2031-06-01T18:00Z' });
    expect(ev.status).toBe(200);
    const base = `/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/`;
    const answer = await cast.owner.post(base, { board_size: 100, num_snakes: 3, num_ladders: 3, max_reverts_allowed: 1, ...countsToSettings(autoSplit(100)), ...extra });
    return { answer, base };
  }

  it('a new game has relief off and 2 per team, in the members and the public shape', async () => {
    const game = await newGame(cast);
    const members = await stored(cast, game);
    expect(members).toMatchObject({ relief_after_hours: null, relief_max_per_team: 2 });
    const pub = await new ApiClient(suite.url).get(`/api/public/game/${game.gameId}`);
    expect(v.parse(PublicGameAnswerSchema, pub.body).game).toMatchObject({ relief_after_hours: null, relief_max_per_team: 2 });
    expect(pub.body.game).toHaveProperty('relief_after_hours', null);
    expect(pub.body.game).toHaveProperty('relief_max_per_team', 2);
  });

  it('takes the settings on create and refuses values out of range with 400, creating nothing', async () => {
    const { answer, base } = await create({ relief_after_hours: 24, relief_max_per_team: 3 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const read = await cast.owner.get(`${base}${answer.body.game.id}`);
    expect(v.parse(GameAnswerSchema, read.body).game).toMatchObject({ relief_after_hours: 24, relief_max_per_team: 3 });
    for (const [extra, field] of [
      [{ relief_after_hours: 0 }, 'relief_after_hours'],
      [{ relief_after_hours: 169 }, 'relief_after_hours'],
      [{ relief_after_hours: 1.5 }, 'relief_after_hours'],
      [{ relief_after_hours: '24' }, 'relief_after_hours'],
      [{ relief_max_per_team: -1 }, 'relief_max_per_team'],
      [{ relief_max_per_team: 11 }, 'relief_max_per_team'],
      [{ relief_max_per_team: null }, 'relief_max_per_team'],
    ] as const) {
      const bad = await create(extra);
      expect(bad.answer.status, JSON.stringify(extra)).toBe(400);
      expect(bad.answer.body.error).toContain(field);
      // No game was made: the event still takes one.
      const good = await cast.owner.post(bad.base, { board_size: 100, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 1, ...countsToSettings(autoSplit(100)) });
      expect(good.status, JSON.stringify(good.body)).toBe(200);
    }
    for (const edge of [{ relief_after_hours: 1, relief_max_per_team: 0 }, { relief_after_hours: 168, relief_max_per_team: 10 }]) {
      expect((await create(edge)).answer.status, JSON.stringify(edge)).toBe(200);
    }
  });

  it('PUT .../rules changes any subset, keeps what is absent, and refuses out of range without a change', async () => {
    const game = await newGame(cast, { proof: true });
    const rules = (body: unknown) => cast.owner.put(`${game.path}/rules`, body);
    const v0 = (await stored(cast, game)).version;

    const a = await rules({ relief_after_hours: 12 });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toMatchObject({ ok: true, proof_required: true, relief_after_hours: 12, relief_max_per_team: 2 });
    let g = await stored(cast, game);
    expect(g).toMatchObject({ proof_required: true, relief_after_hours: 12, relief_max_per_team: 2, version: v0 + 1 });

    const b = await rules({ relief_max_per_team: 5, proof_required: false });
    expect(b.body).toMatchObject({ proof_required: false, relief_after_hours: 12, relief_max_per_team: 5 });

    for (const bad of [{ relief_after_hours: 0 }, { relief_after_hours: 200 }, { relief_max_per_team: 11 }, { relief_max_per_team: 'two' }, { proof_required: 'yes' }]) {
      const r = await rules(bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toEqual(expect.any(String));
    }
    g = await stored(cast, game);
    expect(g).toMatchObject({ proof_required: false, relief_after_hours: 12, relief_max_per_team: 5, version: v0 + 2 });

    // Nothing to change: 200 with the rules in force, no new version.
    const same = await rules({});
    expect(same.body).toMatchObject({ ok: true, proof_required: false, relief_after_hours: 12, relief_max_per_team: 5 });
    expect((await stored(cast, game)).version).toBe(v0 + 2);

    const off = await rules({ relief_after_hours: null });
    expect(off.body).toMatchObject({ relief_after_hours: null, relief_max_per_team: 5 });
    expect((await stored(cast, game)).relief_after_hours).toBeNull();
    expect((await cast.member.put(`${game.path}/rules`, { relief_after_hours: 3 })).status).toBe(403);
  });
});
