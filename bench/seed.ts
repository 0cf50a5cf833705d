import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../tests/support/api';
import { autoSplit, countsToSettings } from '../contract/game';
import { NO_WIN_SNAKES, ok } from './measure';

// How the live-game benchmarks (bench/spectators.bench.ts, bench/many.bench.ts) set their games
// up through the API, written once.

/** The sample task pool (examples/osrs-tasks.csv); the games get no tasks when it is missing. */
const TASKS_CSV = fileURLToPath(new URL('../examples/osrs-tasks.csv', import.meta.url));

/**
 * Signs 'bench-owner' in on the server at `url`, onboards them with `igns` as Owner of 'Bench Clan'
 * (docs/server.md §3) and imports the sample task pool; answers their client, the clan id and the
 * IGN ids (in the order of `igns`). Throws (ok()) on any call that is not 2xx.
 */
export async function benchClan(url: string, igns: string[]): Promise<{ owner: ApiClient; clanId: number; ignIds: number[] }> {
  const owner = new ApiClient(url);
  const me = await owner.onboard('bench-owner', igns, { role: 'Owner', clan_name: 'Bench Clan' });
  const clanId = me.clan_memberships_list[0].clan_id as number;
  const ignIds = me.igns.map((i: { id: number }) => i.id) as number[];
  if (fs.existsSync(TASKS_CSV)) {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(TASKS_CSV)], { type: 'text/csv' }), 'osrs-tasks.csv');
    ok(await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form), 'upload tasks');
  }
  return { owner, clanId, ignIds };
}

/**
 * Creates the bench game of event `eventId` (225 squares, the auto-split tiers, 3 reverts), puts
 * NO_WIN_SNAKES on its board (no ladders: nobody wins during a run) and starts it; answers its id.
 * Throws (ok()) on any call that is not 2xx.
 */
export async function startBenchGame(owner: ApiClient, clanId: number, eventId: number): Promise<number> {
  const game = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, {
    board_size: 225, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(225)),
  }), 'game');
  const gameId = game.game.id as number;
  const base = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
  ok(await owner.put(`${base}/board`, { snakes_config: NO_WIN_SNAKES, ladders_config: [] }), 'board');
  ok(await owner.put(`${base}/status`, { status: 'in-progress' }), 'start');
  return gameId;
}
