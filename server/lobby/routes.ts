import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { notFound } from '../errors';
import { GAME_NOT_FOUND } from '../games/repository';
import { NOT_MODIFIED } from '../games/cachedAnswer';
import { PublicGameAnswerSchema } from '../../contract/gameApi';
import { ClanLiveGamesAnswerSchema, ForecastAnswerSchema, LobbyAnswerSchema, SpectateAnswerSchema } from '../../contract/lobby';
import { publicGameResponse } from './publicGame';
import { clanLiveGames, lobbyGames, spectatableGames } from './repository';
import { forecastOf } from './forecast';
import { etagMatches } from '../games/cache';
import { boardPicture, pictureEtag, PICTURE_DEFAULT_WIDTH, PICTURE_MAX_WIDTH, PICTURE_MIN_WIDTH } from './boardPicture';

/** The path ids: a clan's, a public game's. */
const CLAN_IDS = ids({ clanId: 'clan id' });
const GAME_IDS = ids({ gameId: 'game id' });

/** The refusal of a board picture's width other than a whole number of pixels in range (docs/server.md §19). */
const WIDTH_MESSAGE = `Width must be a whole number of pixels from ${PICTURE_MIN_WIDTH} to ${PICTURE_MAX_WIDTH}.`;

/** ?width of GET /public/game/{gameId}/board.png: digits only, PICTURE_MIN_WIDTH..PICTURE_MAX_WIDTH, PICTURE_DEFAULT_WIDTH when absent. */
const BoardPictureQuerySchema = v.object({
  width: v.optional(
    v.pipe(v.string(WIDTH_MESSAGE), v.regex(/^[0-9]{1,5}$/, WIDTH_MESSAGE), v.transform(Number), v.minValue(PICTURE_MIN_WIDTH, WIDTH_MESSAGE), v.maxValue(PICTURE_MAX_WIDTH, WIDTH_MESSAGE)),
  ),
});

/** The cached game of the path: 400 'Invalid game id.'; 404 'Game not found.' for a missing or PENDING game (not public yet). */
async function publicEntry(c: Context<AppEnv, string, { out: { param: { gameId: number } } }>) {
  const { gameId } = valid(c, 'param');
  const entry = await c.get('deps').gameCache.get(gameId);
  if (entry === null || entry.status === 'PENDING') throw notFound(GAME_NOT_FOUND);
  return entry;
}

/**
 * The lobby and spectating calls (docs/server.md §3; docs/client.md §4; docs/game-rules.md §11).
 * Each path also answers with a trailing slash.
 * - GET /games → {games: LobbyGame[]} (contract/lobby.ts): the signed-in user's games; 401 signed out
 * - GET /games/spectate → {games: SpectateGame[]}: games not PENDING, newest first; no sign-in
 * - GET /public/game/{gameId} → {game} in the public shape (no user_teams, no revert counts); no
 *   sign-in; 400 'Invalid game id.' for a malformed id; 404 'Game not found.' for a missing or
 *   PENDING game (not public until it has a team). Served from the game cache (games/cache.ts)
 *   with an ETag (304 to a matching If-None-Match) and brotli or gzip when accepted. A cached
 *   game is answered before the middleware chain by publicGameFastPath (lobby/publicGame.ts); this
 *   handler answers what falls through to it (bad id, missing or PENDING game, database error),
 *   a game found here with the same answer (publicGameAnswer, games/cachedAnswer.ts).
 * - GET /public/game/{gameId}/forecast → {version, teams: [{team_id, win_chance,
 *   expected_rolls_to_finish}], runs} (docs/server.md §15, lobby/forecast.ts): 10,000 simulated
 *   continuations of the current squares, computed once per game version; no sign-in; 400 for a
 *   malformed id, 404 'Game not found.' for a missing or PENDING game
 * - GET /public/game/{gameId}/board.png?width={px} → a PNG of the board as spectators see it
 *   (docs/server.md §19, lobby/boardPicture.ts), `width` pixels square (200 to 1,600, default 800;
 *   anything else 400); ETag of the game version and width, 304 to a matching If-None-Match,
 *   `Cache-Control: public, max-age=5`; no sign-in; 404 'Game not found.' for a missing or PENDING game
 * - GET /clan/{clanId}/games/live → {games: ClanLiveGame[]} (contract/lobby.ts): the clan's READY,
 *   in-progress and paused games, newest first, for the dashboard of its managers (docs/game-rules.md
 *   §1); members only: 401 signed out, 400 'Invalid clan id.', 404 'Clan ID {id} not found.',
 *   403 for a non-member
 */
export function lobbyRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/games',
    describe({ tag: 'lobby', access: 'signed-in', summary: "The caller's games.", answer: named('LobbyAnswer', LobbyAnswerSchema) }),
    async (c) => {
      const user = requireUser(c);
      return c.json({ games: await lobbyGames(c.get('deps').db, user.id) });
    },
  );

  app.get(
    '/clan/:clanId/games/live',
    describe({ tag: 'lobby', access: 'member', summary: "The clan's READY, in-progress and paused games.", answer: named('ClanLiveGamesAnswer', ClanLiveGamesAnswerSchema) }),
    input('param', CLAN_IDS),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'member');
      return c.json({ games: await clanLiveGames(db, clanId) });
    },
  );

  app.get(
    '/games/spectate',
    describe({ tag: 'lobby', access: 'public', summary: 'Games anyone may watch, newest first.', answer: named('SpectateAnswer', SpectateAnswerSchema) }),
    async (c) => c.json({ games: await spectatableGames(c.get('deps').db) }),
  );

  app.get(
    '/public/game/:gameId',
    describe({
      tag: 'lobby', access: 'public', summary: 'A game in the public shape (ETag; 304 to a matching If-None-Match).',
      answer: named('PublicGameAnswer', PublicGameAnswerSchema), also: NOT_MODIFIED,
    }),
    input('param', GAME_IDS),
    async (c) => publicGameResponse(c, await publicEntry(c)),
  );

  app.get(
    '/public/game/:gameId/forecast',
    describe({
      tag: 'lobby', access: 'public', answer: named('ForecastAnswer', ForecastAnswerSchema),
      summary: "Each team's chance to win and expected rolls to finish, from 10,000 simulated continuations (cached per version).",
    }),
    input('param', GAME_IDS),
    async (c) => c.json(await forecastOf(await publicEntry(c))),
  );

  app.get(
    '/public/game/:gameId/board.png',
    describe({
      tag: 'lobby', access: 'public', summary: 'The board as a PNG picture, as spectators see it (ETag; 304 to a matching If-None-Match).',
      answer: { contentType: 'image/png', description: 'The board, `width` pixels square: squares with their numbers, snakes, ladders and each team pawn in its colour.' },
      also: NOT_MODIFIED,
    }),
    input('param', GAME_IDS),
    input('query', BoardPictureQuerySchema, { about: { width: `Pixels, ${PICTURE_MIN_WIDTH} to ${PICTURE_MAX_WIDTH}; default ${PICTURE_DEFAULT_WIDTH}.` } }),
    async (c) => {
      valid(c, 'param');
      const width = valid(c, 'query').width ?? PICTURE_DEFAULT_WIDTH;
      const entry = await publicEntry(c);
      // A revalidation of the current picture is answered without drawing it.
      const etag = pictureEtag(entry, width);
      const headers = { ETag: etag, 'Cache-Control': 'public, max-age=5' };
      if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
      const picture = await boardPicture(entry, width);
      return c.body(new Uint8Array(picture.png.buffer as ArrayBuffer, picture.png.byteOffset, picture.png.byteLength), 200, { ...headers, 'Content-Type': 'image/png' });
    },
  );

  return app;
}
