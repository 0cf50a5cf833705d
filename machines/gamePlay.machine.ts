import { and, assign, emit, enqueueActions, not, sendTo, setup, stateIn } from 'xstate';
import type { LogEntry } from '../contract/gameApi';
import { GAME_LOG_LIMIT } from '../contract/gameApi';
import { applyGameUpdate, isFullGame, mergeLogEntries, prependLogEntry, type HeldGame, type LastMove } from '../contract/socket';
import { statusToChartState, type GameChartState } from '../contract/game/status';
import { leaderActionOf, leaderCanRevert } from '../contract/game/roles';
import { GAME_VIEW_MESSAGES } from '../contract/game/viewTexts';
import { leaderRollGate } from '../contract/proofView';
import { leaderReliefOf } from '../contract/game/reliefView';
import { bannerMachine, type BannerEvent } from './banner.machine';
import { rollMomentMachine, type RollMomentEvent, type RollMomentReport } from './rollMoment.machine';
import { liveGameMachine, type LiveGameReport, type LiveGameRequest } from './liveGame.machine';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

export interface GamePlayInput {
  gameId: number;
  /** The viewer prefers reduced motion (the roll moment then jumps straight to the result). */
  reducedMotion?: boolean;
}

export interface GamePlayContext {
  gameId: number;
  /** The game as the screen shows it: while a roll moment plays, the game from before the roll. */
  game: HeldGame | null;
  /** The newest game from the server while a roll moment plays (shown once the pawn arrives), else null. */
  arriving: HeldGame | null;
  /** Live Game Log: the last GAME_LOG_LIMIT entries, newest first (docs/client.md §12). */
  log: LogEntry[];
  /** The load failure text (docs/client.md §11), or null. */
  loadError: string | null;
  reducedMotion: boolean;
}

/** What the ordered report of the liveGame chart carries. */
type OrderedReport = Extract<LiveGameReport, { type: 'game.ordered' }>;

export type GamePlayEvent =
  | LiveGameReport
  /** The Leader's three intents (docs/architecture.md "A roll's chain of names"): a roll, a revert, a substitute task for its team's square (docs/game-rules.md §15). */
  | { type: 'game.roll' }
  | { type: 'game.revert' }
  | { type: 'game.relief' }
  | { type: 'game.reload' }
  /** Raised once a live update changed the held game (applyOrdered): the play state is resolved again. */
  | { type: 'game.updated' }
  /** Raised by applyGameUpdate for an update that reports a roll; passed on to the rollMoment chart. */
  | RollMomentEvent
  /** From the rollMoment chart: the pawn stands on its square, so the game the roll made is shown. */
  | RollMomentReport;

/** What the chart tells whoever listens (`actor.on`): how a revert the viewer asked for ended. */
export type GamePlayEmitted = { type: 'revert.applied' } | { type: 'revert.refused'; message: string };

/** Which of the two held games an update goes to: the shown one, or the one waiting for the pawn. */
type UpdateTarget = 'shown' | 'arriving';

/**
 * A game screen: the play screen of members or the public spectator view (docs/client.md §9; docs/game-rules.md §6, §11; docs/server.md
 * §3 and "Live socket").
 * - `loading` runs `loadGame` (REST, given from src/); a full game from the socket's join_game answer
 *   also ends it. Failure → `failed` with the error the actor raised (the documented texts).
 * - `live.play` follows the server status, mapped once by contract statusToChartState: pending,
 *   ready, inProgress (idle / rolling / reverting), paused, finished (celebrating for the 15 s of
 *   confetti when there are winners, then settled). The invoked liveGame chart `connection` puts
 *   every game_state_update in version order (docs/server.md §6 "Order": gaps, the wait, joining
 *   again) and reports what got through as `game.ordered` (action `applyOrdered`): a change is
 *   assigned and `game.updated` raised, which re-resolves the play state (so the rolling and
 *   reverting flags clear on the next update; a finished game stays as it is). A compact update's
 *   log entries are merged with the update they came with, so none shows ahead of its change,
 *   twice, or lost. A game loaded over HTTP is handed to it (`game.held`) as the base of the order.
 * - `live.moment` (parallel to play) holds the roll moment: in `still` an update is shown at once;
 *   one that reports a roll (last_move) waits in `arriving` and raises `roll.moved` (with the
 *   newest log entry id held), which moves to `playing` and goes to the invoked rollMoment chart
 *   (die, walk, climb or slide). While `playing` every update waits in `arriving`, so the task
 *   panel, Team Positions, status and winner keep the game from before the roll; the chart's
 *   `roll.arrived` (the pawn stands on its square, the die long settled) shows the arriving game
 *   and resolves the play state from it (so the winner comes after the pawn reaches the last
 *   square).
 * - Rolls and reverts are offered only in inProgress and not while a roll moment plays, only to a
 *   team's Leader (rolls only while the proof rule lets the team roll: contract leaderRollGate),
 *   reverts only under canRevert; with relief on (docs/game-rules.md §15) the Leader of a team whose
 *   task is open or denied may ask for a new task (`askingRelief` until the update or the
 *   refusal); `game.roll`, `game.revert` and `game.relief` go on to the invoked `connection`
 *   (liveGame chart), which emits roll_dice, revert_roll and request_relief. How a revert ended is emitted (`revert.applied`, `revert.refused` with the server's
 *   text) for the confirm modal that asked for it.
 * - The server's action_error message for a roll goes to the invoked banner chart `message`
 *   (`message.show`), which fades it at 4 s and removes it at 5 s.
 */
export const gamePlayMachine = setup({
  types: {
    context: {} as GamePlayContext,
    events: {} as GamePlayEvent,
    input: {} as GamePlayInput,
    emitted: {} as GamePlayEmitted,
  },
  actors: {
    loadGame: missingPromise<HeldGame, { gameId: number }>('gamePlay', 'loadGame'),
    liveGame: liveGameMachine,
    banner: bannerMachine,
    rollMoment: rollMomentMachine,
  },
  delays: {
    /** Confetti lasts 15 s (docs/client.md §12). */
    confettiDuration: 15_000,
  },
  guards: {
    /** The report holds a whole game of this screen (the join answer), not only progress. */
    isFullGameOfThis: ({ context }, report: OrderedReport) => report.game.id === context.gameId && report.steps.some((step) => isFullGame(step.update)),
    statusIs: ({ context }, params: { state: GameChartState }) => !!context.game && statusToChartState(context.game.status) === params.state,
    hasWinners: ({ context }) => (context.game?.winners?.length ?? 0) > 0,
    isLeader: ({ context }) => leaderActionOf(context.game) !== null,
    /** The proof rule lets the led team roll (docs/server.md §9 roll gate). */
    isRollAllowed: ({ context }) => leaderRollGate(context.game) === null,
    canRevertTurn: ({ context }) => leaderCanRevert(context.game),
    /** Relief is on and the led team's task is open or denied (contract leaderReliefOf); the wait on the square is the server's to check. */
    canAskRelief: ({ context }) => leaderReliefOf(context.game) !== null,
  },
  actions: {
    /** A whole game (the HTTP load, or the join answer): held, and handed to the liveGame chart as the base of the order. */
    assignLoadedGame: enqueueActions(({ context, enqueue }, game: HeldGame) => {
      const result = applyGameUpdate(context.game, game);
      const next = 'game' in result ? result.game : game;
      enqueue.assign({ game: next, log: next.log_entries.slice(0, GAME_LOG_LIMIT), loadError: null });
      enqueue.sendTo('connection', { type: 'game.held', game: next } satisfies LiveGameRequest);
    }),
    assignLoadError: assign((_, error: unknown) => ({
      loadError: errorText(error, GAME_VIEW_MESSAGES.loadFailed),
    })),
    /**
     * The updates the liveGame chart let through in version order, onto the newest game held (the
     * arriving one while a roll moment plays). Every step is applied: a full game brings its log, a
     * progress update its own log entries (compact form); entries of updates older than the game
     * held are merged by id. A change is assigned and `game.updated` raised. An update that reports
     * a roll, and every update while a moment plays (`into: 'arriving'`), waits in `arriving` so the
     * screen keeps the game from before the roll until the pawn arrives; each roll is raised as
     * `roll.moved` with the newest log entry id held before it.
     */
    applyOrdered: enqueueActions(({ context, enqueue }, params: { report: OrderedReport; into: UpdateTarget }) => {
      let log = context.log;
      const moves: { move: LastMove; logHead: number }[] = [];
      for (const step of params.report.steps) {
        const move = isFullGame(step.update) ? null : step.update.last_move ?? null;
        if (move) moves.push({ move, logHead: log[0]?.id ?? 0 });
        log = isFullGame(step.update) ? step.game.log_entries.slice(0, GAME_LOG_LIMIT) : mergeLogEntries(log, step.update.new_log_entries, GAME_LOG_LIMIT);
      }
      log = mergeLogEntries(log, params.report.late, GAME_LOG_LIMIT);
      const next = params.report.game;
      if (params.report.steps.length === 0 || next === (context.arriving ?? context.game)) {
        // A repeat of the held game (the join_game answer after the page's own load) leaves the context as it is.
        if (log !== context.log) enqueue.assign({ log });
        return;
      }
      enqueue.assign(params.into === 'arriving' || moves.length > 0 ? { arriving: next, log } : { game: next, log });
      for (const move of moves) enqueue.raise({ type: 'roll.moved', ...move });
      enqueue.raise({ type: 'game.updated' });
    }),
    /** The pawn arrived: the game the roll made is shown, and the play state resolved from it. */
    showArrivedGame: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ game: context.arriving ?? context.game, arriving: null });
      enqueue.raise({ type: 'game.updated' });
    }),
    playRoll: sendTo('rollMoment', (_, event: RollMomentEvent) => event),
    reportRevertApplied: emit({ type: 'revert.applied' } satisfies GamePlayEmitted),
    reportRevertRefused: emit((_, message: string) => ({ type: 'revert.refused', message }) satisfies GamePlayEmitted),
    prependLog: assign(({ context }, entry: LogEntry) => ({ log: prependLogEntry(context.log, entry, GAME_LOG_LIMIT) })),
    showMessage: sendTo('message', (_, text: string): BannerEvent => ({ type: 'message.show', tone: 'error', text })),
    requestFullState: sendTo('connection', { type: 'room.rejoin' } satisfies LiveGameRequest),
    /** The Leader's intents, on to the liveGame chart under the same names with the team's action. */
    'game.roll': sendTo('connection', ({ context }): LiveGameRequest => ({ type: 'game.roll', action: leaderActionOf(context.game)! })),
    'game.revert': sendTo('connection', ({ context }): LiveGameRequest => ({ type: 'game.revert', action: leaderActionOf(context.game)! })),
    'game.relief': sendTo('connection', ({ context }): LiveGameRequest => ({ type: 'game.relief', action: { game_id: context.gameId, team_id: leaderReliefOf(context.game)!.teamId } })),
  },
}).createMachine({
  id: 'gamePlay',
  context: ({ input }) => ({ gameId: input.gameId, game: null, arriving: null, log: [], loadError: null, reducedMotion: input.reducedMotion ?? false }),
  invoke: { id: 'connection', src: 'liveGame', input: ({ context }) => ({ gameId: context.gameId }) },
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
        'game.ordered': {
          guard: { type: 'isFullGameOfThis', params: ({ event }) => event },
          target: 'live',
          actions: { type: 'assignLoadedGame', params: ({ event }) => event.game },
        },
      },
    },
    failed: {
      on: {
        'game.reload': 'loading',
        'game.ordered': {
          guard: { type: 'isFullGameOfThis', params: ({ event }) => event },
          target: 'live',
          actions: { type: 'assignLoadedGame', params: ({ event }) => event.game },
        },
      },
    },
    live: {
      type: 'parallel',
      invoke: [
        { id: 'message', src: 'banner' },
        { id: 'rollMoment', src: 'rollMoment', input: ({ context }) => ({ reducedMotion: context.reducedMotion }) },
      ],
      on: {
        'game.logReceived': { actions: { type: 'prependLog', params: ({ event }) => event.entry } },
        'game.teamUpdated': { actions: 'requestFullState' },
      },
      states: {
        play: {
          initial: 'resolving',
          // In the play region, not on `live`: a state below that takes the refusal itself
          // (inProgress, reverting) then replaces this one instead of running beside it.
          on: {
            'game.updated': '.resolving',
            'action.failed': { actions: { type: 'showMessage', params: ({ event }) => event.message } },
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
              // The refusal also ends the roll (the message is shown as anywhere in play).
              on: { 'action.failed': { target: '.idle', actions: { type: 'showMessage', params: ({ event }) => event.message } } },
              states: {
                idle: {
                  on: {
                    'game.roll': { guard: and(['isLeader', 'isRollAllowed', not(stateIn({ live: { moment: 'playing' } }))]), target: 'rolling', actions: 'game.roll' },
                    'game.revert': { guard: and(['canRevertTurn', not(stateIn({ live: { moment: 'playing' } }))]), target: 'reverting', actions: 'game.revert' },
                    'game.relief': { guard: and(['canAskRelief', not(stateIn({ live: { moment: 'playing' } }))]), target: 'askingRelief', actions: 'game.relief' },
                  },
                },
                rolling: { tags: ['actionPending'] },
                // Ends like a roll: the update with the substitute (task_override) re-resolves, a refusal shows its message.
                askingRelief: { tags: ['actionPending'] },
                reverting: {
                  tags: ['actionPending'],
                  // The revert's outcome goes to whoever asked (the confirm dialog shows it).
                  on: {
                    'game.updated': { target: '#gamePlay.live.play.resolving', actions: 'reportRevertApplied' },
                    'action.failed': { target: 'idle', actions: { type: 'reportRevertRefused', params: ({ event }) => event.message } },
                  },
                },
              },
            },
            paused: {},
            finished: {
              initial: 'settled',
              /** A finished game stays as it is (the confetti is not started again). */
              on: { 'game.updated': { guard: { type: 'statusIs', params: { state: 'finished' } } } },
              states: {
                celebrating: { after: { confettiDuration: 'settled' } },
                settled: {},
              },
            },
          },
        },
        moment: {
          initial: 'still',
          states: {
            still: {
              on: {
                'game.ordered': { actions: { type: 'applyOrdered', params: ({ event }) => ({ report: event, into: 'shown' }) } },
                'roll.moved': { target: 'playing', actions: { type: 'playRoll', params: ({ event }) => event } },
              },
            },
            playing: {
              on: {
                'game.ordered': { actions: { type: 'applyOrdered', params: ({ event }) => ({ report: event, into: 'arriving' }) } },
                'roll.moved': { actions: { type: 'playRoll', params: ({ event }) => event } },
                'roll.arrived': { target: 'still', actions: 'showArrivedGame' },
              },
            },
          },
        },
      },
    },
  },
});