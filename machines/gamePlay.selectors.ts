import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { gamePlayMachine } from './gamePlay.machine';
import { leaderEntryOf, userTeamsOf, viewerRoleOf } from '../contract/game/roles';
import { leaderRollGate } from '../contract/proofView';
import { leaderReliefOf } from '../contract/game/reliefView';
import type { bannerMachine } from './banner.machine';
import type { rollMomentMachine } from './rollMoment.machine';

type S = SnapshotFrom<typeof gamePlayMachine>;

/** Named selectors of the gamePlay chart (docs/architecture.md §3: smallest slices). The game
 * they read is the one shown: while a roll moment plays, the game from before the roll. */
export const selectIsLoading = (s: S) => s.matches('loading');
export const selectLoadError = (s: S) => (s.matches('failed') ? s.context.loadError : null);
export const selectGame = (s: S) => s.context.game;
export const selectLog = (s: S) => s.context.log;
/** The newest roll in the Live Game Log (an entry with its die, docs/game-rules.md §9), or null. */
export const selectLastLoggedRoll = (s: S) => s.context.log.find((e) => typeof e.die === 'number') ?? null;
/** The dice commitment of the game held (docs/game-rules.md §9), or null before it is loaded. */
export const selectDiceCommitment = (s: S) => s.context.game?.dice_commitment ?? null;
export const selectTeamStates = (s: S) => s.context.game?.team_states;
export const selectStatus = (s: S) => s.context.game?.status ?? null;
export const selectWinners = (s: S) => s.context.game?.winners ?? null;
export const selectViewerRole = (s: S) => viewerRoleOf(s.context.game);
export const selectLeaderEntry = (s: S) => leaderEntryOf(s.context.game);
export const selectUserTeams = (s: S) => userTeamsOf(s.context.game);
/** Reverts the viewer's led team has left (max_reverts_allowed - revert_count), or null when it leads none. */
export const selectLeaderRevertsLeft = (s: S) => {
  const entry = leaderEntryOf(s.context.game);
  const team = entry && s.context.game?.team_states.find((t) => t.team_id === entry.id);
  const count = team ? (team as { revert_count?: number }).revert_count : undefined;
  return typeof count === 'number' ? Math.max(s.context.game!.max_reverts_allowed - count, 0) : null;
};
/**
 * New tasks (relief, docs/game-rules.md §15) the viewer's led team may still ask for in this game
 * (relief_max_per_team - relief_count), or null when it leads none, relief is off or the count is
 * not in the game held (an older server).
 */
export const selectLeaderReliefsLeft = (s: S) => {
  const game = s.context.game;
  const entry = leaderEntryOf(game);
  const team = entry && game?.team_states.find((t) => t.team_id === entry.id);
  if (!game || typeof game.relief_after_hours !== 'number' || typeof team?.relief_count !== 'number') return null;
  return Math.max(game.relief_max_per_team - team.relief_count, 0);
};
/** The new tasks a team may ask for in the game (relief_max_per_team). */
export const selectReliefMaxPerTeam = (s: S) => s.context.game?.relief_max_per_team ?? 0;
export const selectIsPlayable = (s: S) => s.matches({ live: { play: 'inProgress' } });
export const selectCanRoll = (s: S) => s.can({ type: 'game.roll' });
export const selectCanRevert = (s: S) => s.can({ type: 'game.revert' });
export const selectCanAskRelief = (s: S) => s.can({ type: 'game.relief' });
export const selectIsAskingRelief = (s: S) => s.matches({ live: { play: { inProgress: 'askingRelief' } } });
/** When (ms since the epoch) the led team may ask for relief (contract leaderReliefOf), or null when the button does not show. */
export const selectReliefAllowedAt = (s: S) => leaderReliefOf(s.context.game)?.allowedAt ?? null;
export const selectIsRolling = (s: S) => s.matches({ live: { play: { inProgress: 'rolling' } } });
export const selectIsReverting = (s: S) => s.matches({ live: { play: { inProgress: 'reverting' } } });
/** The banner chart of the action message (a refused roll or revert), while the game is live. */
export const selectMessage = (s: S) => s.children.message as ActorRefFrom<typeof bannerMachine> | undefined;
export const selectIsCelebrating = (s: S) => s.matches({ live: { play: { finished: 'celebrating' } } });
export const selectIsFinished = (s: S) => s.matches({ live: { play: 'finished' } });
export const selectConnection = (s: S) => s.children.connection;
/** Why the viewer's led team may not roll now (the proof rule of docs/server.md §9), or null. */
export const selectRollGate = (s: S) => leaderRollGate(s.context.game);
/** The roll moment chart (die, pawn walk, held log lines), while the game is live. */
export const selectRollMoment = (s: S) => s.children.rollMoment as ActorRefFrom<typeof rollMomentMachine> | undefined;
