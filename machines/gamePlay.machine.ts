import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { Game, LogEntry, PublicGame, UserTeam } from '../contract/gameApi';
import { GAME_LOG_LIMIT } from '../contract/gameApi';
import { isFullGame, mergeProgress, prependLogEntry, type GameProgress, type TeamAction } from '../contract/socket';
import { canRevert, statusToChartState, type GameChartState } from '../contract/game';
import { socketConnectionMachine, type ConnectionRequest, type GameFact } from './socketConnection.machine';

/** The game a screen holds: the members' shape (play screen) or the public one (spectator view). */
export type HeldGame = Game | PublicGame;

/** Who the viewer is in this game (product-spec section 6 "Game roles"). */
export type ViewerRole = 'leader' | 'member' | 'none';

/** Load failure texts of the game views (product-spec section 8 "Game view"). */
export const GAME_VIEW_MESSAGES = {
  loadFailed: 'Failed to load game details. It may not exist or the link is invalid.',
  publicLoadFailed: 'Failed to load game details. It may not exist or is no longer public.',
  notFound: 'Game not found.',
} as const;

/** Texts of the Game Action panel (product-spec sections 2, 4 and 6). */
export const GAME_ACTION_TEXTS = {
  leaderTitle: 'Roll Dice for Your Team',
  memberTitle: 'Leader Action Required',
  noTeamTitle: 'Join a Team to Roll',
  memberOnly: 'Only the Leader of your team can roll the dice or revert a turn.',
  noTeam: 'You must be a member of a team participating in this game to see game actions.',
  noActions: (status: string) => `Game is ${status}. No actions available.`,
} as const;

const NO_TEAMS: readonly UserTeam[] = Object.freeze([]);

/** The viewer's team entries (none in the public shape). */
export function userTeamsOf(game: HeldGame | null): readonly UserTeam[] {
  return game && 'user_teams' in game ? game.user_teams : NO_TEAMS;
}

/** The first of the viewer's entries that leads a team of the game, or null. */
export function leaderEntryOf(game: HeldGame | null): UserTeam | null {
  return userTeamsOf(game).find((t) => t.role === 'Leader') ?? null;
}

/** 'leader' when one of the viewer's IGNs leads a team, 'member' when on a team, else 'none'. */
export function viewerRoleOf(game: HeldGame | null): ViewerRole {
  const teams = userTeamsOf(game);
  if (teams.some((t) => t.role === 'Leader')) return 'leader';
  return teams.length > 0 ? 'member' : 'none';
}

/** The roll/revert payload of the viewer's led team, or null when the viewer leads none. */
export function leaderActionOf(game: HeldGame | null): TeamAction | null {
  const entry = leaderEntryOf(game);
  return game && entry ? { game_id: game.id, team_id: entry.id, performer_ign_id: entry.osrs_ign_id } : null;
}

/**
 * Whether the viewer's led team may revert now (product-spec section 4): position > 1 and
 * revert_count < max_reverts_allowed (contract canRevert). False without a led team or revert counts.
 */
export function leaderCanRevert(game: HeldGame | null): boolean {
  const entry = leaderEntryOf(game);
  if (!game || !entry) return false;
  const team = game.team_states.find((t) => t.team_id === entry.id) as { current_position: number; revert_count?: number } | undefined;
  if (!team || typeof team.revert_count !== 'number') return false;
  return canRevert({ current_position: team.current_position, revert_count: team.revert_count }, game.max_reverts_allowed);
}

/**
 * A full game received over the socket replacing the held one: an older version is ignored
 * (returns `held`); a public-shape answer on a members' screen keeps the viewer's team entries
 * and revert counts it had.
 */
export function replaceGame(held: HeldGame | null, incoming: HeldGame): HeldGame {
  if (!held) return incoming;
  if (incoming.id !== held.id || incoming.version < held.version) return held;
  if ('user_teams' in incoming || !('user_teams' in held)) return incoming;
  return {
    ...incoming,
    user_teams: held.user_teams,
    // A members-room broadcast carries revert counts; a public one does not, so keep the held ones.
    team_states: incoming.team_states.map((t) => ({
      ...t,
      revert_count: (t as { revert_count?: number }).revert_count ?? held.team_states.find((h) => h.team_id === t.team_id)?.revert_count ?? 0,
    })),
  } as Game;
}

/** The held game after a game_state_update, or null on a version gap (join_game must be sent again). */
export function nextGame(held: HeldGame | null, state: HeldGame | GameProgress): HeldGame | null {
  if (isFullGame(state)) return replaceGame(held, state);
  if (!held) return null;
  return mergeProgress(held, state);
}

export interface GamePlayInput {
  gameId: number;
}

export interface GamePlayContext {
  gameId: number;
  game: HeldGame | null;
  /** Live Game Log: the last GAME_LOG_LIMIT entries, newest first (product-spec section 9). */
  log: LogEntry[];
  /** The load failure text (product-spec section 8 "Game view"), or null. */
  loadError: string | null;
  /** The server's action_error message of a refused roll or revert, or null. */
  actionError: string | null;
}

export type GamePlayEvent =
  | GameFact
  | { type: 'roll.request' }
  | { type: 'revert.request' }
  | { type: 'game.reload' };

const missingLoader = fromPromise<HeldGame, { gameId: number }>(async () => {
  throw new Error("gamePlay machine: actor 'loadGame' was not provided");
});

type StateReceived = Extract<GamePlayEvent, { type: 'game.stateReceived' }>;

/**
 * A game screen: the play screen of members or the public spectator view (product-spec sections 2
 * "Game play screen", 4 "Game status", 6 "Game roles", 7 "Spectating" and "Live socket").
 * - `loading` runs `loadGame` (REST, given from src/); a full game from the socket's join_game answer
 *   also ends it. Failure → `failed` with the error the actor raised (the spec's texts).
 * - `live.play` follows the server status, mapped once by contract statusToChartState: pending,
 *   ready, inProgress (idle / rolling / reverting), paused, finished (celebrating for the 15 s of
 *   confetti when there are winners, then settled). Every game_state_update re-resolves it, so the
 *   rolling and reverting flags clear on the next update; a progress update is merged with
 *   mergeProgress, and a version gap sends `room.rejoin` (join_game again) instead.
 * - Rolls and reverts are offered only in inProgress, only to a team's Leader, reverts only under
 *   canRevert; they go out through the invoked `connection` (socketConnection chart).
 * - `live.message` shows the server's action_error message, fading at 4 s and gone at 5 s.
 */
export const gamePlayMachine = setup({
  types: {
    context: {} as GamePlayContext,
    events: {} as GamePlayEvent,
    input: {} as GamePlayInput,
  },
  actors: {
    loadGame: missingLoader,
    socketConnection: socketConnectionMachine,
  },
  delays: {
    /** Action messages fade at 4 s (product-spec section 4). */
    messageFade: 4000,
    /** ... and are removed at 5 s. */
    messageRemove: 1000,
    /** Confetti lasts 15 s (product-spec section 9). */
    confettiDuration: 15_000,
  },
  guards: {
    isFullGameOfThis: ({ context }, state: StateReceived['state']) => isFullGame(state) && state.id === context.gameId,
    isVersionGap: ({ context }, state: StateReceived['state']) => nextGame(context.game, state) === null,
    isStale: ({ context }, state: StateReceived['state']) => nextGame(context.game, state) === context.game,
    staysFinished: ({ context }, state: StateReceived['state']) => {
      const next = nextGame(context.game, state);
      return !!context.game && !!next && statusToChartState(context.game.status) === 'finished' && statusToChartState(next.status) === 'finished';
    },
    statusIs: ({ context }, params: { state: GameChartState }) => !!context.game && statusToChartState(context.game.status) === params.state,
    hasWinners: ({ context }) => (context.game?.winners?.length ?? 0) > 0,
    isLeader: ({ context }) => leaderActionOf(context.game) !== null,
    canRevertTurn: ({ context }) => leaderCanRevert(context.game),
  },
  actions: {
    assignLoadedGame: assign(({ context }, game: HeldGame) => {
      const next = replaceGame(context.game, game);
      return { game: next, log: next.log_entries.slice(0, GAME_LOG_LIMIT), loadError: null };
    }),
    assignLoadError: assign((_, error: unknown) => ({
      loadError: error instanceof Error && error.message ? error.message : GAME_VIEW_MESSAGES.loadFailed,
    })),
    applyGameState: assign(({ context }, state: StateReceived['state']) => {
      const next = nextGame(context.game, state);
      if (!next) return {};
      const log = isFullGame(state) && next !== context.game ? next.log_entries.slice(0, GAME_LOG_LIMIT) : context.log;
      return { game: next, log };
    }),
    prependLog: assign(({ context }, entry: LogEntry) => ({ log: prependLogEntry(context.log, entry, GAME_LOG_LIMIT) })),
    assignActionError: assign((_, message: string) => ({ actionError: message })),
    clearActionError: assign({ actionError: null }),
    requestFullState: sendTo('connection', { type: 'room.rejoin' } satisfies ConnectionRequest),
    sendRoll: sendTo('connection', ({ context }): ConnectionRequest => ({ type: 'team.roll', action: leaderActionOf(context.game)! })),
    sendRevert: sendTo('connection', ({ context }): ConnectionRequest => ({ type: 'team.revert', action: leaderActionOf(context.game)! })),
  },
}).createMachine({
  id: 'gamePlay',
  context: ({ input }) => ({ gameId: input.gameId, game: null, log: [], loadError: null, actionError: null }),
  invoke: { id: 'connection', src: 'socketConnection', input: ({ context }) => ({ gameId: context.gameId }) },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadGame',
        src: 'loadGame',
        input: ({ context }) => ({ gameId: context.gameId }),
        onDone: { target: 'live', actions: { type: 'assignLoadedGame', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: {
        'game.stateReceived': {
          guard: { type: 'isFullGameOfThis', params: ({ event }) => event.state },
          target: 'live',
          actions: { type: 'assignLoadedGame', params: ({ event }) => event.state as HeldGame },
        },
      },
    },
    failed: {
      on: {
        'game.reload': 'loading',
        'game.stateReceived': {
          guard: { type: 'isFullGameOfThis', params: ({ event }) => event.state },
          target: 'live',
          actions: { type: 'assignLoadedGame', params: ({ event }) => event.state as HeldGame },
        },
      },
    },
    live: {
      type: 'parallel',
      on: {
        'game.logReceived': { actions: { type: 'prependLog', params: ({ event }) => event.entry } },
        'game.teamUpdated': { actions: 'requestFullState' },
      },
      states: {
        play: {
          initial: 'resolving',
          on: {
            'game.stateReceived': [
              { guard: { type: 'isVersionGap', params: ({ event }) => event.state }, actions: 'requestFullState' },
              { guard: { type: 'isStale', params: ({ event }) => event.state } },
              { guard: { type: 'staysFinished', params: ({ event }) => event.state }, actions: { type: 'applyGameState', params: ({ event }) => event.state } },
              { target: '.resolving', actions: { type: 'applyGameState', params: ({ event }) => event.state } },
            ],
          },
          states: {
            resolving: {
              always: [
                { guard: { type: 'statusIs', params: { state: 'pending' } }, target: 'pending' },
                { guard: { type: 'statusIs', params: { state: 'ready' } }, target: 'ready' },
                { guard: { type: 'statusIs', params: { state: 'inProgress' } }, target: 'inProgress' },
                { guard: { type: 'statusIs', params: { state: 'paused' } }, target: 'paused' },
                { guard: 'hasWinners', target: 'finished.celebrating' },
                { target: 'finished.settled' },
              ],
            },
            pending: {},
            ready: {},
            inProgress: {
              initial: 'idle',
              on: { 'action.failed': '.idle' },
              states: {
                idle: {
                  on: {
                    'roll.request': { guard: 'isLeader', target: 'rolling', actions: 'sendRoll' },
                    'revert.request': { guard: 'canRevertTurn', target: 'reverting', actions: 'sendRevert' },
                  },
                },
                rolling: { tags: ['actionPending'] },
                reverting: { tags: ['actionPending'] },
              },
            },
            paused: {},
            finished: {
              initial: 'settled',
              states: {
                celebrating: { after: { confettiDuration: 'settled' } },
                settled: {},
              },
            },
          },
        },
        message: {
          initial: 'hidden',
          on: {
            'action.failed': { target: '.shown', actions: { type: 'assignActionError', params: ({ event }) => event.message } },
          },
          states: {
            hidden: {},
            shown: { after: { messageFade: 'fading' } },
            fading: { after: { messageRemove: { target: 'hidden', actions: 'clearActionError' } } },
          },
        },
      },
    },
  },
});
