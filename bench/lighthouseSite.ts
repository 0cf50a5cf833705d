import { createTestDatabase, startServer } from '../tests/support/server';
import { ApiClient } from '../tests/support/api';
import { autoSplit, countsToSettings } from '../contract/game';

/**
 * A real server for a Lighthouse run (bench/RESULTS.md "First load"): the built client on a fresh
 * SQLite database with one in-progress 225-square game of two teams and a few rolls' worth of
 * log. Prints `site <url> <gameId>` and runs until SIGTERM. Run `npm run build` first.
 */
async function main(): Promise<void> {
  const db = await createTestDatabase('sqlite');
  const server = await startServer({ ...db.env, BOARD_SEED: '7', GAME_CACHE_CHECK_MS: '250', ...(process.env.CLIENT_DIR ? { CLIENT_DIR: process.env.CLIENT_DIR } : {}) });
  const owner = new ApiClient(server.url);
  const me = await owner.onboard('lighthouse-owner', ['LightA', 'LightB'], { role: 'Owner', clan_name: 'Lighthouse Clan' });
  const clanId = me.clan_memberships_list[0].clan_id as number;
  const ev = await owner.post(`/api/clan/${clanId}/events/`, { name: 'Lighthouse Cup', start_datetime: '2031-06-01T18:00Z' });
  const eventId = ev.body.event.id as number;
  for (const [i, [name, color]] of [['Red', '#aa0000'], ['Blue', '#0000aa']].entries()) {
    const t = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color });
    await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.body.team.id}/members`, { osrs_ign_id: me.igns[i].id, role: 'Leader' });
  }
  const g = await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, {
    board_size: 225, num_snakes: 8, num_ladders: 8, max_reverts_allowed: 3, ...countsToSettings(autoSplit(225)),
  });
  const gameId = g.body.game.id as number;
  await owner.put(`/api/clan/${clanId}/events/${eventId}/game/${gameId}/status`, { status: 'in-progress' });
  console.log(`site ${server.url} ${gameId}`);
  const stop = async () => {
    await server.stop();
    await db.drop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

void main();
