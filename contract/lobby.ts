import * as v from 'valibot';
import { GAME_STATUSES } from './game/status';

/**
 * Payloads of the lobby and spectating calls (docs/client.md §4 and
 * "Spectate list", 7 "Spectating"; docs/server.md §3, "Public game",
 * "Spectate list"). GET /api/public/game/{gameId} answers PublicGameAnswerSchema of gameApi.ts
 * (not re-exported here: the dashboard's lobby rows load with every page, the game's schemas need not).
 */

/** A team of a lobby game: its position, and whether one of the viewer's IGNs is on it (starred). */
const LobbyTeamSchema = v.object({
  id: v.number(),
  name: v.string(),
  color: v.string(),
  /** Square 1..N (1 before the first roll). */
  current_position: v.number(),
  is_mine: v.boolean(),
});

/**
 * One lobby row (GET /api/games): a game of an event on which the viewer's IGN `player_ign` is on
 * a team, with its clan, event, board size, status and every team of the event (by team id). A
 * viewer with two IGNs on teams of one event gets one row per IGN ("Playing As").
 */
const LobbyGameSchema = v.object({
  game_id: v.number(),
  clan_id: v.number(),
  clan_name: v.string(),
  event_id: v.number(),
  event_name: v.string(),
  board_size: v.number(),
  status: v.picklist(GAME_STATUSES),
  player_ign: v.string(),
  teams: v.array(LobbyTeamSchema),
});
export type LobbyGame = v.InferOutput<typeof LobbyGameSchema>;

/**
 * GET /api/games answer: active and finished games together, ordered by clan name, then player
 * IGN, then newest game first, so rows of one "Clan: … | Playing As: …" group are adjacent; the
 * client splits active from former with isActiveStatus (contract/game/status.ts).
 */
export const LobbyAnswerSchema = v.object({ games: v.array(LobbyGameSchema) });

/** One spectatable game (GET /api/games/spectate): every status but PENDING; created_at ISO. */
const SpectateGameSchema = v.object({
  game_id: v.number(),
  event_name: v.string(),
  clan_name: v.string(),
  status: v.picklist(GAME_STATUSES),
  board_size: v.number(),
  team_count: v.number(),
  created_at: v.string(),
});
export type SpectateGame = v.InferOutput<typeof SpectateGameSchema>;

/** GET /api/games/spectate answer: newest game first. */
export const SpectateAnswerSchema = v.object({ games: v.array(SpectateGameSchema) });

/** The statuses of a game that is on or about to be (READY: has teams, not started; in-progress; paused). */
export const LIVE_GAME_STATUSES = ['READY', 'in-progress', 'paused'] as const satisfies readonly (typeof GAME_STATUSES)[number][];

/** One live game of a clan (GET /api/clan/{clanId}/games/live): its event, status, board size and number of teams. */
const ClanLiveGameSchema = v.object({
  game_id: v.number(),
  event_id: v.number(),
  event_name: v.string(),
  status: v.picklist(LIVE_GAME_STATUSES),
  board_size: v.number(),
  team_count: v.number(),
});
export type ClanLiveGame = v.InferOutput<typeof ClanLiveGameSchema>;

/** GET /api/clan/{clanId}/games/live answer: the clan's READY, in-progress and paused games, newest first. */
export const ClanLiveGamesAnswerSchema = v.object({ games: v.array(ClanLiveGameSchema) });

/** One team's chance in a forecast (docs/server.md §15; docs/game-rules.md §14). */
const TeamForecastSchema = v.object({
  team_id: v.number(),
  /** Share of simulated runs the team wins, ties shared (0..1; the teams' chances sum to 1). */
  win_chance: v.number(),
  /** Mean rolls the team needs to reach the last square. */
  expected_rolls_to_finish: v.number(),
});

/** GET /api/public/game/{gameId}/forecast answer: for the game's `version`, from `runs` simulations. */
export const ForecastAnswerSchema = v.object({ version: v.number(), teams: v.array(TeamForecastSchema), runs: v.number() });
export type ForecastAnswer = v.InferOutput<typeof ForecastAnswerSchema>;
