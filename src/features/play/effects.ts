import { fromPromise } from 'xstate';
import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import type { HeldGame } from '../../../contract/socket';
import { gamePlayMachine } from '../../../machines/gamePlay.machine';
import { liveGameMachine } from '../../../machines/liveGame.machine';
import { rollMomentMachine } from '../../../machines/rollMoment.machine';
import { playRollSound } from './sound';
import { ApiRequestError } from '../../api/client';
import { checkTeamProgress, fetchGame } from '../../api/games';
import { fetchForecast, fetchPublicGame } from '../../api/publicGame';
import type { ForecastAnswer } from '../../../contract/lobby';
import { gameSocketActor, openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';
import { launchConfetti } from './confetti';
import { fetchGameSubmissions, uploadProof } from '../../api/submissions';
import type { ProofEffects } from './ProofPanel';

/** The effects of a game screen, replaceable in tests: the REST load, the socket, the confetti. */
export interface GameScreenEffects {
  /** Loads the game; raises an Error whose message is the text to show. */
  loadGame: (gameId: number) => Promise<HeldGame>;
  openSocket: () => GameSocketLike;
  /** Starts confetti on a canvas; returns the stop function. */
  launchConfetti: (canvas: HTMLCanvasElement) => () => void;
  /** The game's forecast (docs/server.md §15) for the win chances; absent: none shown. */
  loadForecast?: (gameId: number) => Promise<ForecastAnswer>;
  /** The proof calls of the members' screen (docs/server.md §9); absent for spectators. */
  proof?: ProofEffects;
}

/** A 404 → 'Game not found.'; any other failure → `fallback` (docs/client.md §11). */
async function withViewMessages<T>(call: Promise<T>, fallback: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw new Error(err instanceof ApiRequestError && err.status === 404 ? GAME_VIEW_MESSAGES.notFound : fallback);
  }
}

/** Effects of the members' play screen: GET /api/clan/{clanId}/events/{eventId}/game/{gameId}. */
export function memberScreenEffects(clanId: number, eventId: number): GameScreenEffects {
  return {
    loadGame: (gameId) => withViewMessages(fetchGame(clanId, eventId, gameId), GAME_VIEW_MESSAGES.loadFailed),
    openSocket: openGameSocket,
    launchConfetti,
    loadForecast: fetchForecast,
    proof: {
      loadLatest: async (gameId, teamId) => (await fetchGameSubmissions(clanId, eventId, gameId)).find((s) => s.team_id === teamId) ?? null,
      uploadProof: (gameId, input) => uploadProof(clanId, eventId, gameId, { teamId: input.teamId, image: input.image, note: input.note }, input.onProgress),
      checkProgress: (gameId, teamId) => checkTeamProgress(clanId, eventId, gameId, teamId),
    },
  };
}

/** Effects of the public spectator view: GET /api/public/game/{gameId}, no sign-in. */
export const spectatorScreenEffects: GameScreenEffects = {
  loadGame: (gameId) => withViewMessages(fetchPublicGame(gameId), GAME_VIEW_MESSAGES.publicLoadFailed),
  openSocket: openGameSocket,
  launchConfetti,
  loadForecast: fetchForecast,
};

/**
 * The gamePlay chart with a screen's effects: `loadGame`, the liveGame chart over
 * `openSocket`, and the roll moment with its optional sound (sound.ts, off by default).
 */
export function gameScreenLogic(effects: GameScreenEffects) {
  return gamePlayMachine.provide({
    actors: {
      loadGame: fromPromise(({ input }) => effects.loadGame(input.gameId)),
      liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(effects.openSocket) } }),
      rollMoment: rollMomentMachine.provide({
        actions: { tickDie: () => playRollSound('tick'), landDie: () => playRollSound('land'), stepPawn: () => playRollSound('step') },
      }),
    },
  });
}

/** A route id: a positive whole number, else null (the screen then shows 'Game not found.'). */
export function routeId(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= 2147483647 ? n : null;
}
