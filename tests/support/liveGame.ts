import fs from 'node:fs';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { ApiClient, type Answer } from './api';
import { SAMPLE_TASKS_CSV } from './e2e';

/** A team of a live game set up by setUpLiveGame: its name, colour, id and Leader. */
export interface LiveTeam {
  name: string;
  color: string;
  id: number;
  /** The Leader's API client (signed in, same session a browser context can copy). */
  leader: ApiClient;
}

/** A started game set up through the API by setUpLiveGame. */
export interface LiveGame {
  owner: ApiClient;
  clanId: number;
  eventId: number;
  gameId: number;
  teams: LiveTeam[];
  /** The members' play screen path, /games/clan/{clanId}/events/{eventId}/game/{gameId}. */
  playPath: string;
  /** The public spectator path, /games/spectate/{gameId}. */
  spectatePath: string;
  /** The game's REST path (GET for the members' shape). */
  apiPath: string;
}

/** The body of a 200 answer, else an Error naming the call (usable outside vitest, e.g. in scripts). */
function ok(what: string, answer: Answer): any {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Sets up a started game through the API of the server at `base` (docs/server.md §3, §4, §5):
 * an Owner with a clan (`prefix` names people and the clan), the shared 144-task pool, an event,
 * two teams (Red Dragons #cc2222, Blue Moons #2244cc) each with its own Leader, a 100-square game
 * with the default settings and no proof rule, status in-progress. Used by browser tests and
 * the screenshot script; throws on any refused call.
 */
export async function setUpLiveGame(base: string, prefix = 'Live'): Promise<LiveGame> {
  const owner = new ApiClient(base);
  const me = await owner.onboard(`${prefix}Owner`, [`${prefix}Boss`], { role: 'Owner', clan_name: `${prefix} Legion` });
  const clanId: number = me.clan_memberships_list[0].clan_id;
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(SAMPLE_TASKS_CSV)], { type: 'text/csv' }), 'osrs-tasks.csv');
  ok('upload_csv', await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form));
  const eventId: number = ok('event', await owner.post(`/api/clan/${clanId}/events/`, { name: `${prefix} Race`, start_datetime: new Date(Date.now() + 3_600_000).toISOString() })).event.id;
  const teams: LiveTeam[] = [];
  for (const [name, color, short] of [['Red Dragons', '#cc2222', 'Red'], ['Blue Moons', '#2244cc', 'Blue']] as const) {
    const leader = new ApiClient(base);
    const profile = await leader.onboard(`${prefix}${short}Lead`, [`${prefix.slice(0, 4)}${short}Ldr`], { role: 'Member', clan_id: clanId });
    const id: number = ok('team', await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color })).team.id;
    ok('member', await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${id}/members`, { osrs_ign_id: profile.igns[0].id, role: 'Leader' }));
    teams.push({ name, color, id, leader });
  }
  const gameId: number = ok('game', await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, { ...DEFAULT_SETTINGS, proof_required: false })).game.id;
  const apiPath = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
  ok('status', await owner.put(`${apiPath}/status`, { status: 'in-progress' }));
  return { owner, clanId, eventId, gameId, teams, playPath: `/games/clan/${clanId}/events/${eventId}/game/${gameId}`, spectatePath: `/games/spectate/${gameId}`, apiPath };
}
