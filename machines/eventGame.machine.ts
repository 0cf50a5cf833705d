import { and, assign, enqueueActions, sendTo, setup, stopChild, type ActorRefFrom } from 'xstate';
import type { BoardBody, Game } from '../contract/gameApi';
import { DEFAULT_SETTINGS } from '../contract/game/settings';
import type { GameSettings, GameSettingsBody } from '../contract/game/settings';
import {
  changeSettingsDraft, checkReliefDraft, checkSettingsDraft, draftFromSettings, parseSettingsDraft, reliefDraftOf, type ReliefDraft, type ReliefSettings, type SettingsDraft, type SettingsField,
} from '../contract/game/settingsDraft';
import { boardTextsOf, boardTextsUnchanged, checkBoardTexts } from '../contract/game/boardEditor';
import { gameStatusMachine } from './gameStatus.machine';
import { liveGameMachine, type LiveGameReport, type LiveGameRequest } from './liveGame.machine';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

export interface EventGameInput {
  /** The event's game, or null when none is set up yet. */
  gameId: number | null;
}

export interface EventGameContext {
  gameId: number | null;
  game: Game | null;
  /** The settings form (setup form and Board Settings form). */
  draft: SettingsDraft;
  /** The form's 'Require approved proof before the next roll' box (docs/server.md §9): checked by default in setup, the game's rule after. */
  proofRequired: boolean;
  /** The relief fields (docs/game-rules.md §15): part of the create payload in setup; saved with 'Save relief settings' on a game. */
  relief: ReliefDraft;
  snakesText: string;
  laddersText: string;
  /** Why the manual board was refused (parse, rule or server message). */
  boardError: string | null;
  loadError: string | null;
  /** The game's gameStatus actor, spawned when the game is first loaded. */
  statusRef: ActorRefFrom<typeof gameStatusMachine> | null;
}

export type EventGameEvent =
  | { type: 'settings.change'; field: SettingsField; value: string }
  /** The proof box: part of the create payload in setup; on an existing game it is saved at once (PUT .../rules). */
  | { type: 'rules.change'; proofRequired: boolean }
  /** Typing in a relief field (docs/game-rules.md §15). */
  | { type: 'relief.change'; field: keyof ReliefDraft; value: string }
  /** 'Save relief settings' on an existing game (PUT .../rules). */
  | { type: 'relief.save' }
  /** Create & Deploy Game (setup) or Randomize Board (an existing game). */
  | { type: 'settings.submit' }
  | { type: 'randomize.confirm' }
  | { type: 'randomize.cancel' }
  | { type: 'board.change'; box: 'snakes' | 'ladders'; value: string }
  | { type: 'board.save' }
  /** Load the game again (Retry after a failed load, Refresh, after a reset). */
  | { type: 'game.reload' }
  /** The game was deleted (the delete dialog succeeded). */
  | { type: 'game.deleted' }
  /** What the invoked liveGame chart reports (only `game.ordered`, the updates in version order, is used here). */
  | LiveGameReport;

/** The relief settings a game holds (a game shape without them: relief off, the default limit). */
function reliefSettingsOf(game: Game | null): ReliefSettings {
  return { relief_after_hours: game?.relief_after_hours ?? null, relief_max_per_team: game?.relief_max_per_team ?? 2 };
}

/** A message for the page's banner. */
export interface GameNotice {
  tone: 'success' | 'error';
  text: string;
}

/**
 * The Event Game view of one event (docs/client.md §7, §11; docs/game-rules.md §4, §6; docs/server.md
 * §3). Actors provided from src/: `loadGame`, `createGame`,
 * `randomizeGame`, `saveBoard`, `liveGame` (the liveGame chart with its `socket`)
 * and `gameStatus` (the gameStatus chart with its `changeStatus`).
 * - setup (no game): the settings form; `settings.submit` with a valid form → creating
 *   ('Deploying game, please wait...') → loading the new game; failures are notified.
 * - loading ('Loading game details...') → manage, or loadFailed with the error and a retry
 *   (`game.reload`).
 * - manage: the game, the gameStatus child (spawned on the first load, told `game.statusChanged`
 *   on every later load and live update), the invoked liveGame chart `connection` (joins the
 *   game's room on every connect and reconnect and puts the updates in version order: gaps, the
 *   wait and joining again are its own; each game loaded here is handed to it with `game.held`), the
 *   manual board editor and the Board Settings form.
 *   `settings.submit` (Randomize Board) is taken only where the board may change: paused opens
 *   the Confirm Board Randomization dialog (confirmingRandomize), PENDING or READY randomizes at
 *   once; in progress the board stays as it is while teams play on it, and a finished game's
 *   board is a record; `board.save` checks the boxes with
 *   checkBoardTexts before savingBoard, then reloads; `game.reload` reloads in place;
 *   `game.deleted` goes back to setup. `rules.change` (the proof box) saves at once in savingRules
 *   (PUT .../rules); in setup it is part of the create payload (checked by default). The relief
 *   fields (`relief.change`, checked with contract checkReliefDraft) go with the create payload in
 *   setup, and on a game `relief.save` saves them in savingRelief (PUT .../rules).
 * Messages go to the banner through the `notify` action (provided from src/).
 */
export const eventGameMachine = setup({
  types: {
    context: {} as EventGameContext,
    events: {} as EventGameEvent,
    input: {} as EventGameInput,
  },
  actors: {
    loadGame: missingPromise<Game, { gameId: number }>('eventGame', 'loadGame'),
    createGame: missingPromise<{ gameId: number; message: string }, { settings: GameSettingsBody }>('eventGame', 'createGame'),
    saveRules: missingPromise<{ proofRequired: boolean }, { gameId: number; proofRequired: boolean }>('eventGame', 'saveRules'),
    saveRelief: missingPromise<ReliefSettings, { gameId: number; relief: ReliefSettings }>('eventGame', 'saveRelief'),
    randomizeGame: missingPromise<{ game: Game; message: string }, { gameId: number; settings: GameSettings }>('eventGame', 'randomizeGame'),
    saveBoard: missingPromise<{ message: string }, { gameId: number; body: BoardBody }>('eventGame', 'saveBoard'),
    gameStatus: gameStatusMachine,
    /** The live game: the liveGame chart, its `socket` given from src/. */
    liveGame: liveGameMachine,
  },
  guards: {
    hasGameId: ({ context }) => context.gameId !== null,
    isSettingsValid: ({ context }) => checkSettingsDraft(context.draft).error === null,
    isReliefValid: ({ context }) => checkReliefDraft(context.relief).ok,
    isBoardValid: ({ context }) => context.game !== null && checkBoardTexts(context.game.board_size, context.snakesText, context.laddersText).ok,
    /** The game is paused (read from the gameStatus child): the board may change after a confirmation. */
    isPaused: ({ context }) => context.statusRef?.getSnapshot().matches('paused') ?? false,
    /** The game has not started (PENDING or READY, read from the gameStatus child): the board may change at once. */
    isNotStarted: ({ context }) => {
      const status = context.statusRef?.getSnapshot();
      return status ? status.matches('pending') || status.matches('ready') : false;
    },
  },
  actions: {
    assignSetting: assign(({ context }, e: { field: SettingsField; value: string }) => ({
      draft: changeSettingsDraft(context.draft, e.field, e.value),
    })),
    assignDefaultSettings: assign({ draft: () => draftFromSettings(DEFAULT_SETTINGS), proofRequired: true, relief: () => reliefDraftOf(null) }),
    assignSettingsOfGame: assign(({ context }) => ({
      draft: context.game ? draftFromSettings(context.game) : context.draft,
      proofRequired: context.game ? context.game.proof_required : context.proofRequired,
      relief: context.game ? reliefDraftOf(context.game) : context.relief,
    })),
    assignReliefField: assign(({ context }, e: { field: keyof ReliefDraft; value: string }) => ({ relief: { ...context.relief, [e.field]: e.value } })),
    /** The saved relief settings, in the game and in the fields. */
    assignRelief: assign(({ context }, relief: ReliefSettings) => ({ relief: reliefDraftOf(relief), game: context.game ? { ...context.game, ...relief } : null })),
    assignReliefOfGame: assign(({ context }) => ({ relief: reliefDraftOf(context.game) })),
    assignProofRequired: assign((_, proofRequired: boolean) => ({ proofRequired })),
    assignRulesOfGame: assign(({ context }) => ({ proofRequired: context.game?.proof_required ?? context.proofRequired })),
    /** The saved rule, in the game and in the box. */
    assignRules: assign(({ context }, proofRequired: boolean) => ({ proofRequired, game: context.game ? { ...context.game, proof_required: proofRequired } : null })),
    assignBoardText: assign((_, e: { box: 'snakes' | 'ladders'; value: string }) =>
      e.box === 'snakes' ? { snakesText: e.value, boardError: null } : { laddersText: e.value, boardError: null },
    ),
    assignBoardError: assign(({ context }, error: string | null) => ({
      boardError:
        error ??
        (context.game ? (checkBoardTexts(context.game.board_size, context.snakesText, context.laddersText) as { error?: string }).error ?? null : 'Game is not initialized.'),
    })),
    assignGame: assign((_, game: Game) => ({ game, gameId: game.id, loadError: null, ...boardTextsOf(game.board_connections), boardError: null })),
    assignCreated: assign((_, gameId: number) => ({ gameId })),
    assignLoadError: assign((_, error: unknown) => ({ loadError: errorText(error, 'Failed to fetch game data.') })),
    /** Spawns the gameStatus child on the first load; tells it the server status on later loads. */
    syncStatus: enqueueActions(({ context, enqueue }, game: Game) => {
      if (context.statusRef) {
        enqueue.sendTo(context.statusRef, { type: 'game.statusChanged', status: game.status });
      } else {
        enqueue.assign({
          statusRef: ({ spawn }) => spawn('gameStatus', { id: 'gameStatus', input: { gameId: game.id, status: game.status } }),
        });
      }
    }),
    /**
     * The updates the liveGame chart let through in version order: the newest game is held (the
     * editor boxes too, unless they hold unsaved edits) and the gameStatus child told the status.
     */
    applyOrdered: enqueueActions(({ context, enqueue }, game: Game) => {
      if (!context.game || game === context.game) return;
      const keepTexts = !boardTextsUnchanged(context.game.board_connections, context.snakesText, context.laddersText);
      enqueue.assign({ game, ...(keepTexts ? {} : boardTextsOf(game.board_connections)) });
      if (context.statusRef) enqueue.sendTo(context.statusRef, { type: 'game.statusChanged', status: game.status });
    }),
    /** A game changed here (randomized, reloaded, its rules saved) is the base the liveGame chart orders the next updates on. */
    tellHeld: sendTo('connection', ({ context }): LiveGameRequest => ({ type: 'game.held', game: context.game! })),
    stopGameStatus: stopChild('gameStatus'),
    dropGame: assign({ statusRef: null, game: null, gameId: null, boardError: null }),
    /** Hands a message to the page's banner; provided from src/. */
    notify: (_, _notice: GameNotice) => {},
  },
}).createMachine({
  id: 'eventGame',
  context: ({ input }) => ({
    gameId: input.gameId,
    game: null,
    draft: draftFromSettings(DEFAULT_SETTINGS),
    proofRequired: true,
    relief: reliefDraftOf(null),
    snakesText: '[]',
    laddersText: '[]',
    boardError: null,
    loadError: null,
    statusRef: null,
  }),
  initial: 'resolving',
  on: {
    'settings.change': { actions: { type: 'assignSetting', params: ({ event }) => event } },
    'relief.change': { actions: { type: 'assignReliefField', params: ({ event }) => event } },
  },
  states: {
    /** Passing through: an existing game is loaded, otherwise the setup form shows. */
    resolving: {
      always: [{ guard: 'hasGameId', target: 'loading' }, { target: 'setup' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadGame',
        src: 'loadGame',
        input: ({ context }) => ({ gameId: context.gameId ?? 0 }),
        onDone: {
          target: 'manage',
          actions: [
            { type: 'assignGame', params: ({ event }) => event.output },
            'assignSettingsOfGame',
            { type: 'syncStatus', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'loadFailed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    loadFailed: {
      on: { 'game.reload': 'loading' },
    },
    setup: {
      initial: 'editing',
      entry: 'assignDefaultSettings',
      on: { 'rules.change': { actions: { type: 'assignProofRequired', params: ({ event }) => event.proofRequired } } },
      states: {
        editing: {
          on: { 'settings.submit': { guard: and(['isSettingsValid', 'isReliefValid']), target: 'creating' } },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createGame',
            src: 'createGame',
            input: ({ context }) => {
              const relief = checkReliefDraft(context.relief);
              return { settings: { ...(parseSettingsDraft(context.draft) ?? DEFAULT_SETTINGS), proof_required: context.proofRequired, ...(relief.ok ? relief.settings : {}) } };
            },
            onDone: {
              target: '#eventGame.loading',
              actions: [
                { type: 'assignCreated', params: ({ event }) => event.output.gameId },
                { type: 'notify', params: ({ event }) => ({ tone: 'success' as const, text: event.output.message }) },
              ],
            },
            onError: {
              target: 'editing',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: errorText(event.error, 'Failed to create game.') }) },
            },
          },
        },
      },
    },
    manage: {
      initial: 'idle',
      invoke: { id: 'connection', src: 'liveGame', input: ({ context }) => ({ gameId: context.gameId ?? 0, game: context.game }) },
      on: {
        'game.ordered': { actions: { type: 'applyOrdered', params: ({ event }) => event.game as Game } },
        'board.change': { actions: { type: 'assignBoardText', params: ({ event }) => event } },
        'game.reload': '.reloading',
        'game.deleted': { target: 'setup', actions: ['stopGameStatus', 'dropGame'] },
      },
      states: {
        idle: {
          on: {
            // In progress the board stays as it is, and a finished game's board is a record (the server refuses it).
            'settings.submit': [
              { guard: and(['isSettingsValid', 'isPaused']), target: 'confirmingRandomize' },
              { guard: and(['isSettingsValid', 'isNotStarted']), target: 'randomizing' },
            ],
            'board.save': [
              { guard: 'isBoardValid', target: 'savingBoard' },
              { actions: { type: 'assignBoardError', params: null } },
            ],
            'rules.change': { target: 'savingRules', actions: { type: 'assignProofRequired', params: ({ event }) => event.proofRequired } },
            'relief.save': { guard: 'isReliefValid', target: 'savingRelief' },
          },
        },
        /** PUT .../rules {relief_after_hours, relief_max_per_team}: a refusal puts the game's values back. */
        savingRelief: {
          tags: ['busy'],
          invoke: {
            id: 'saveRelief',
            src: 'saveRelief',
            input: ({ context }) => {
              const relief = checkReliefDraft(context.relief);
              return { gameId: context.gameId ?? 0, relief: relief.ok ? relief.settings : reliefSettingsOf(context.game) };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignRelief', params: ({ event }) => event.output },
                'tellHeld',
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    tone: 'success' as const,
                    text: event.output.relief_after_hours === null ? 'Relief is off.' : `Relief saved: a team may ask for a new task after ${event.output.relief_after_hours} h, ${event.output.relief_max_per_team} times.`,
                  }),
                },
              ],
            },
            onError: {
              target: 'idle',
              actions: ['assignReliefOfGame', { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: errorText(event.error, 'Failed to change the game rules.') }) }],
            },
          },
        },
        /** PUT .../rules {proof_required}: the box shows the new value until the server answers; a refusal puts the game's back. */
        savingRules: {
          tags: ['busy'],
          invoke: {
            id: 'saveRules',
            src: 'saveRules',
            input: ({ context }) => ({ gameId: context.gameId ?? 0, proofRequired: context.proofRequired }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignRules', params: ({ event }) => event.output.proofRequired },
                'tellHeld',
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    tone: 'success' as const,
                    text: event.output.proofRequired ? 'Rolls now wait for an approved proof.' : 'Rolls no longer wait for proof.',
                  }),
                },
              ],
            },
            onError: {
              target: 'idle',
              actions: ['assignRulesOfGame', { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: errorText(event.error, 'Failed to change the game rules.') }) }],
            },
          },
        },
        confirmingRandomize: {
          tags: ['modalOpen'],
          on: {
            'randomize.confirm': 'randomizing',
            'randomize.cancel': 'idle',
          },
        },
        randomizing: {
          tags: ['busy'],
          invoke: {
            id: 'randomizeGame',
            src: 'randomizeGame',
            input: ({ context }) => ({ gameId: context.gameId ?? 0, settings: parseSettingsDraft(context.draft) ?? DEFAULT_SETTINGS }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignGame', params: ({ event }) => event.output.game },
                'assignSettingsOfGame',
                { type: 'syncStatus', params: ({ event }) => event.output.game },
                'tellHeld',
                { type: 'notify', params: ({ event }) => ({ tone: 'success' as const, text: event.output.message }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'notify',
                params: ({ event }) => ({ tone: 'error' as const, text: errorText(event.error, 'Failed to randomize/update game.') }),
              },
            },
          },
        },
        savingBoard: {
          tags: ['busy'],
          invoke: {
            id: 'saveBoard',
            src: 'saveBoard',
            input: ({ context }) => {
              const check = checkBoardTexts(context.game?.board_size ?? 0, context.snakesText, context.laddersText);
              return { gameId: context.gameId ?? 0, body: check.ok ? check.body : { snakes_config: [], ladders_config: [] } };
            },
            onDone: {
              target: 'reloading',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'success' as const, text: event.output.message }) },
            },
            onError: {
              target: 'idle',
              actions: { type: 'assignBoardError', params: ({ event }) => errorText(event.error, 'Server failed to process board update.') },
            },
          },
        },
        reloading: {
          tags: ['busy'],
          invoke: {
            id: 'reloadGame',
            src: 'loadGame',
            input: ({ context }) => ({ gameId: context.gameId ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'assignGame', params: ({ event }) => event.output }, { type: 'syncStatus', params: ({ event }) => event.output }, 'tellHeld'],
            },
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: errorText(event.error, 'Failed to fetch game data.') }) },
            },
          },
        },
      },
    },
  },
});
