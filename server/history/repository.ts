import type { Db } from '../db/schema';
import { isGameStatus, type GameStatus } from '../../contract/game/status';
import type { GameHistory, HistoryRelief, HistoryReview, HistoryTeam, Move, MoveKind } from '../../contract/history';
import { gameHeader, parseWinners } from '../games/repository';
import { revealedSeed } from '../games/dice';

/** A stored move kind as the contract's (only 'roll' and 'revert' are ever stored). */
const kindOf = (text: string): MoveKind => (text === 'revert' ? 'revert' : 'roll');

/** A stored via as the contract's. */
const viaOf = (text: string | null): Move['via'] => (text === 'snake' || text === 'ladder' ? text : null);

/** The recorded moves of a game's current round, oldest first (docs/server.md §12). */
async function listMoves(db: Db, gameId: number): Promise<Move[]> {
  const rows = await db.selectFrom('game_moves')
    .select(['at', 'team_id', 'kind', 'roll_index', 'die', 'from_square', 'landing', 'to_square', 'via'])
    .where('game_id', '=', gameId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    at: r.at,
    team_id: r.team_id,
    kind: kindOf(r.kind),
    roll_index: r.roll_index,
    die: r.die,
    from: r.from_square,
    landing: r.landing,
    to: r.to_square,
    via: viaOf(r.via),
  }));
}

/** The teams playing the game (those with a team state), by team id. */
async function listHistoryTeams(db: Db, gameId: number): Promise<HistoryTeam[]> {
  return db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['teams.id as team_id', 'teams.name', 'teams.color'])
    .where('team_states.game_id', '=', gameId)
    .orderBy('teams.id')
    .execute();
}

/**
 * The referees' standing decisions on the game's proofs (docs/server.md §9, §12):
 * submissions now approved or denied, by review time. An undone review is pending again and not
 * listed; a reset deletes the round's submissions.
 */
async function listReviews(db: Db, gameId: number): Promise<HistoryReview[]> {
  const rows = await db.selectFrom('submissions')
    .select(['reviewed_at', 'team_id', 'square_index', 'status'])
    .where('game_id', '=', gameId)
    .where('status', 'in', ['approved', 'denied'])
    .where('reviewed_at', 'is not', null)
    .orderBy('reviewed_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ at: r.reviewed_at ?? '', team_id: r.team_id, square_index: r.square_index, decision: r.status === 'approved' ? 'approve' : 'deny' }));
}

/** The relief draws of the game's current round, oldest first (docs/server.md §15). */
async function listReliefs(db: Db, gameId: number): Promise<HistoryRelief[]> {
  const rows = await db.selectFrom('relief_draws')
    .select(['at', 'team_id', 'k', 'square_index', 'candidate_ids', 'task_id', 'description'])
    .where('game_id', '=', gameId)
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    let ids: number[] = [];
    try {
      const parsed: unknown = JSON.parse(r.candidate_ids);
      if (Array.isArray(parsed)) ids = parsed.filter((x): x is number => typeof x === 'number');
    } catch {
      ids = [];
    }
    return { at: r.at, team_id: r.team_id, k: r.k, square_index: r.square_index, candidate_ids: ids, task_id: r.task_id, description: r.description };
  });
}

/**
 * The history of game `gameId` (docs/server.md §12; contract GameHistorySchema), or null
 * when there is no such game. The seed is shown only once the game is finished (docs/game-rules.md §9);
 * reviews only when the game requires proof.
 */
export async function loadHistory(db: Db, gameId: number): Promise<GameHistory | null> {
  const row = await gameHeader(db, gameId);
  if (!row) return null;
  const [teams, moves, reviews, reliefs] = await Promise.all([
    listHistoryTeams(db, gameId),
    listMoves(db, gameId),
    row.proof_required === 1 ? listReviews(db, gameId) : Promise.resolve([]),
    listReliefs(db, gameId),
  ]);
  return {
    game: {
      id: row.id,
      event_name: row.event_name,
      clan_name: row.clan_name,
      board_size: row.board_size,
      status: (isGameStatus(row.status) ? row.status : 'PENDING') as GameStatus,
      winners: parseWinners(row.winners),
      dice_commitment: row.dice_commitment,
      dice_seed: revealedSeed(row),
    },
    teams,
    moves,
    reviews,
    reliefs,
  };
}
