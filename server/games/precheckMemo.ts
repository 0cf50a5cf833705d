import type { GameCache } from './cache';
import { checkAction, type ActionGame, type ActionTeam, type AppliedAction, type PrecheckedAction } from './play';
import type { TeamAction } from '../../contract/socket';

/** What this process's last roll of one game left (PrecheckMemo). */
interface RememberedGame {
  /** The game cache's generation (GameCache.generationOf) right after that roll's own invalidation. */
  generation: number;
  game: ActionGame;
  lastRollIndex: number;
  /** The states of the teams that rolled here since the game's rows were last read, by team id. */
  teams: Map<number, ActionTeam>;
  /** The user a session hash, team id and Leader IGN were last found live and Leader for, by `hash|team|ign`. */
  leaders: Map<string, number>;
}

/** Games remembered at most (the least recently rolled are forgotten first). */
const MAX_GAMES = 2_000;
/** Leaders (session, team, IGN) remembered per game at most; past it the game's list starts again. */
const MAX_LEADERS = 64;

const leaderKey = (sessionHash: string, teamId: number, ignId: number) => `${sessionHash}|${teamId}|${ignId}`;

/**
 * The precheck's rows of a game's next roll, kept from this process's last roll of it, so a
 * Leader's next roll is made in one go without the precheck (docs/server.md §5 "Remembered
 * rows"). A roll applied here leaves the game (its new version,
 * status and roll index), the acting team's new state and the Leader's session; the next roll of
 * any team remembered is then checked against these rows (the refusals of checkAction) and
 * claimed with rememberedRoll, which checks the session, the Leader and the version again. Remembered rows are only used while the game cache's generation is the one the
 * last roll left: every committed change invalidates the game in every process (games/cache.ts),
 * so any change since (a revert, a review, a team rename, a change in another process) makes the
 * next roll take the precheck. Whatever this cannot answer (null) goes the precheck's way; it
 * never refuses a roll itself.
 */
export class PrecheckMemo {
  private readonly games = new Map<number, RememberedGame>();

  constructor(private readonly cache: GameCache, private readonly maxGames = MAX_GAMES) {}

  /**
   * The precheck of roll `action` by the session `sessionHash` from the remembered rows, or null
   * when they are not current, do not hold the team or the Leader, or checkAction would refuse
   * (the precheck then decides, from fresh rows).
   */
  recall(action: TeamAction, sessionHash: string): PrecheckedAction | null {
    const remembered = this.games.get(action.game_id);
    if (!remembered) return null;
    if (remembered.generation !== this.cache.generationOf(action.game_id)) {
      this.games.delete(action.game_id);
      return null;
    }
    const userId = remembered.leaders.get(leaderKey(sessionHash, action.team_id, action.performer_ign_id));
    const team = remembered.teams.get(action.team_id);
    if (userId === undefined || !team) return null;
    try {
      checkAction('roll', action, remembered.game, true, team);
    } catch {
      return null;
    }
    return { userId, sessionHash, game: remembered.game, team, lastRollIndex: remembered.lastRollIndex };
  }

  /** The game's cache generation now: read before applying a roll, handed to remember after. */
  generationOf(gameId: number): number {
    return this.cache.generationOf(gameId);
  }

  /**
   * Keeps what roll `action`, made from `pre` and committed as `applied`, leaves, once its
   * broadcast has invalidated the game (RoomBroadcaster.actionApplied). `generationBefore` is
   * generationOf read before the roll was applied: unless exactly one invalidation (the roll's
   * own) came since, or when the game no longer runs (a win), the game is forgotten instead.
   */
  remember(action: TeamAction, pre: PrecheckedAction, applied: AppliedAction, generationBefore: number): void {
    const gameId = action.game_id;
    const { progress, log } = applied;
    const state = progress.team_states.find((t) => t.team_id === action.team_id);
    const rollIndex = Math.max(0, ...log.map((e) => e.roll_index ?? 0));
    if (this.cache.generationOf(gameId) !== generationBefore + 1 || progress.status !== 'in-progress' || !state || rollIndex === 0) {
      this.games.delete(gameId);
      return;
    }
    const previous = this.games.get(gameId);
    const continued = previous !== undefined && previous.generation === generationBefore;
    const teams = continued ? previous.teams : new Map<number, ActionTeam>();
    const leaders = continued && previous.leaders.size < MAX_LEADERS ? previous.leaders : new Map<string, number>();
    teams.set(action.team_id, {
      ...pre.team,
      current_position: state.current_position,
      revert_count: state.revert_count ?? pre.team.revert_count,
      position_history: JSON.stringify(state.position_history),
      task_state: state.task_state,
    });
    leaders.set(leaderKey(pre.sessionHash, action.team_id, action.performer_ign_id), pre.userId);
    this.games.delete(gameId);
    this.games.set(gameId, { generation: generationBefore + 1, game: { ...pre.game, version: progress.version, status: progress.status }, lastRollIndex: rollIndex, teams, leaders });
    while (this.games.size > this.maxGames) this.games.delete(this.games.keys().next().value as number);
  }

  /** Forgets game `gameId` (a roll of it failed). */
  forget(gameId: number): void {
    this.games.delete(gameId);
  }
}
