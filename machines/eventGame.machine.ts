import { and, assign, enqueueActions, fromCallback, fromPromise, sendTo, setup, stopChild, type ActorRefFrom } from 'xstate';
import type { BoardBody, Game, PublicGame } from '../contract/gameApi';
import { isFullGame, mergeProgress, type GameProgress } from '../contract/socket';
import type { SocketCommand } from './socketConnection.machine';
import { BOARD_SIZES, DEFAULT_SETTINGS, isBoardSize } from '../contract/game/board';
import { autoSplit } from '../contract/game/split';
import { countsToSettings, SETTINGS_MESSAGES, TASK_COUNT_FIELDS, validateSettings, type GameSettings } from '../contract/game/settings';
import { configFromConnections, parseConfig, validateBoard, type SquarePair } from '../contract/game/validate';
import type { Connection } from '../contract/game/generate';
import { gameStatusMachine } from './gameStatus.machine';

// ---------------------------------------------------------------------------------------------
// The settings form (product-spec section 5 "Game settings"): pure helpers over the draft
// ---------------------------------------------------------------------------------------------

/** One field of the game settings form. */
export type SettingsField = keyof GameSettings;

/** The settings form as typed: one string per field ('' = empty). */
export type SettingsDraft = Record<SettingsField, string>;

/** Every field of the form, in form order. */
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  'board_size',
  'num_snakes',
  'num_ladders',
  'max_reverts_allowed',
  ...TASK_COUNT_FIELDS,
];

/** The form's strings for a settings object. */
export function draftFromSettings(settings: Readonly<GameSettings>): SettingsDraft {
  const draft = {} as SettingsDraft;
  for (const field of SETTINGS_FIELDS) draft[field] = String(settings[field]);
  return draft;
}

/**
 * The draft after typing `value` into `field`. Choosing a board size (one of BOARD_SIZES) also
 * fills the five task counts with autoSplit of that size (product-spec section 5).
 */
export function changeSettingsDraft(draft: SettingsDraft, field: SettingsField, value: string): SettingsDraft {
  const next = { ...draft, [field]: value };
  const size = Number(value);
  if (field === 'board_size' && value.trim() !== '' && isBoardSize(size)) {
    const counts = countsToSettings(autoSplit(size));
    for (const f of TASK_COUNT_FIELDS) next[f] = String(counts[f]);
  }
  return next;
}

/** The settings of a draft, or null while any field is empty or not a number. */
export function parseSettingsDraft(draft: SettingsDraft): GameSettings | null {
  const settings = {} as GameSettings;
  for (const field of SETTINGS_FIELDS) {
    const text = (draft[field] ?? '').trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n)) return null;
    settings[field] = n;
  }
  return settings;
}

/** Result of checkSettingsDraft. */
export interface SettingsCheck {
  /** The first broken rule's message (spec text), or null when the draft may be sent. */
  error: string | null;
  /** The field the error is about ('counts' for the task total), or null. */
  field: SettingsField | 'counts' | null;
  /** Sum of the task counts typed so far (empty counts as 0). */
  totalTasks: number;
  /** Task tiles of the board: board_size - 2, or null while the size is not one of BOARD_SIZES. */
  taskTiles: number | null;
  /** The total exceeds the task tiles: the note turns to error styling. */
  exceeded: boolean;
}

/**
 * The rules of the settings form (product-spec section 5 "Game settings"): every field required
 * ('All fields are required.'), then contract validateSettings (board size, snakes, ladders,
 * reverts, negative counts, total vs board_size - 2, feasibility), with the field it concerns.
 */
export function checkSettingsDraft(draft: SettingsDraft): SettingsCheck {
  const size = Number(draft.board_size);
  const taskTiles = draft.board_size.trim() !== '' && isBoardSize(size) ? size - 2 : null;
  const totalTasks = TASK_COUNT_FIELDS.reduce((sum, f) => sum + (Number.isFinite(Number(draft[f])) ? Number(draft[f]) : 0), 0);
  const exceeded = taskTiles !== null && totalTasks > taskTiles;
  const settings = parseSettingsDraft(draft);
  if (settings === null) {
    const blank = SETTINGS_FIELDS.find((f) => parseSettingsDraft({ ...DEFAULT_DRAFT, [f]: draft[f] }) === null) ?? null;
    return { error: SETTINGS_MESSAGES.required, field: blank, totalTasks, taskTiles, exceeded };
  }
  const error = validateSettings(settings);
  return { error, field: error === null ? null : fieldOfMessage(error), totalTasks, taskTiles, exceeded };
}

const DEFAULT_DRAFT: SettingsDraft = draftFromSettings(DEFAULT_SETTINGS);

function fieldOfMessage(message: string): SettingsField | 'counts' | null {
  if (message === SETTINGS_MESSAGES.boardSize) return 'board_size';
  if (message === SETTINGS_MESSAGES.snakes) return 'num_snakes';
  if (message === SETTINGS_MESSAGES.ladders) return 'num_ladders';
  if (message === SETTINGS_MESSAGES.reverts) return 'max_reverts_allowed';
  if (message.startsWith('A board of')) return 'num_snakes';
  return 'counts';
}

/** The board sizes the form offers (product-spec section 9). */
export const FORM_BOARD_SIZES = BOARD_SIZES;

// ---------------------------------------------------------------------------------------------
// The manual board editor (product-spec section 5 "Manual board config")
// ---------------------------------------------------------------------------------------------

/** Pairs as editor text: one [start, end] per line inside a JSON array ('[]' when empty). */
export function formatPairs(pairs: readonly SquarePair[]): string {
  if (pairs.length === 0) return '[]';
  return `[\n${pairs.map(([a, b]) => `  [${a}, ${b}]`).join(',\n')}\n]`;
}

/** The editor texts of a game's connections. */
export function boardTextsOf(connections: readonly Connection[]): { snakesText: string; laddersText: string } {
  const config = configFromConnections(connections);
  return { snakesText: formatPairs(config.snakes_config), laddersText: formatPairs(config.ladders_config) };
}

/** Result of checkBoardTexts: the body to send, or the first error (spec text or rule message). */
export type BoardCheck = { ok: true; body: BoardBody } | { ok: false; error: string };

/**
 * Checks the two editor boxes before sending (product-spec section 5): parseConfig of Snakes,
 * then of Ladders ('Invalid JSON format in Snakes config: ...', 'Config must be a JSON array.',
 * 'Each entry must be an array of two positive numbers: [[start, end], ...].'), then the board
 * rules of validateBoard for a board of `boardSize` squares.
 */
export function checkBoardTexts(boardSize: number, snakesText: string, laddersText: string): BoardCheck {
  const snakes = parseConfig(snakesText, 'Snakes');
  if (!snakes.ok) return { ok: false, error: snakes.error };
  const ladders = parseConfig(laddersText, 'Ladders');
  if (!ladders.ok) return { ok: false, error: ladders.error };
  const error = validateBoard(boardSize, snakes.pairs, ladders.pairs);
  if (error !== null) return { ok: false, error };
  return { ok: true, body: { snakes_config: snakes.pairs, ladders_config: ladders.pairs } };
}

/**
 * Connections to preview while editing: the parsed pairs of both boxes that lie on the board
 * (whole squares 1..N, start ≠ end), or null while either box does not parse.
 */
export function previewConnections(boardSize: number, snakesText: string, laddersText: string): Connection[] | null {
  const snakes = parseConfig(snakesText, 'Snakes');
  const ladders = parseConfig(laddersText, 'Ladders');
  if (!snakes.ok || !ladders.ok) return null;
  const onBoard = (n: number) => Number.isInteger(n) && n >= 1 && n <= boardSize;
  const keep = ([a, b]: SquarePair) => onBoard(a) && onBoard(b) && a !== b;
  return [
    ...snakes.pairs.filter(keep).map(([start, end]): Connection => ({ type: 'snake', start, end })),
    ...ladders.pairs.filter(keep).map(([start, end]): Connection => ({ type: 'ladder', start, end })),
  ];
}

// ---------------------------------------------------------------------------------------------
// Live updates (server-contract section 5)
// ---------------------------------------------------------------------------------------------

/** A game_state_update payload: the full game (members' or public shape) or a progress update. */
export type LiveState = Game | PublicGame | GameProgress;

/**
 * The held game after a live update: a full game replaces it (revert counts and the viewer's
 * teams kept from the held game when the update is the public shape); a progress update is merged
 * with contract mergeProgress. Older versions are ignored (the held game comes back). 'rejoin'
 * when a progress update skips a version: the full state must be asked for again (join_game).
 */
export function applyLiveState(held: Game, state: LiveState): Game | 'rejoin' {
  if (state.id !== held.id || state.version < held.version) return held;
  if (!isFullGame(state)) return mergeProgress(held, state) ?? 'rejoin';
  const before = new Map(held.team_states.map((t) => [t.team_id, t.revert_count]));
  return {
    ...state,
    user_teams: 'user_teams' in state ? state.user_teams : held.user_teams,
    team_states: state.team_states.map((t) => ({
      ...t,
      revert_count: 'revert_count' in t && typeof t.revert_count === 'number' ? t.revert_count : (before.get(t.team_id) ?? 0),
    })),
  };
}

/** True when the editor boxes still show `connections` as the view filled them (no unsaved edits). */
export function boardTextsUnchanged(connections: readonly Connection[], snakesText: string, laddersText: string): boolean {
  const texts = boardTextsOf(connections);
  return texts.snakesText === snakesText && texts.laddersText === laddersText;
}

// ---------------------------------------------------------------------------------------------
// The chart
// ---------------------------------------------------------------------------------------------

export interface EventGameInput {
  /** The event's game, or null when none is set up yet. */
  gameId: number | null;
}

export interface EventGameContext {
  gameId: number | null;
  game: Game | null;
  /** The settings form (setup form and Board Settings form). */
  draft: SettingsDraft;
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
  /** Create & Deploy Game (setup) or Randomize Board (an existing game). */
  | { type: 'settings.submit' }
  | { type: 'randomize.confirm' }
  | { type: 'randomize.cancel' }
  | { type: 'board.change'; box: 'snakes' | 'ladders'; value: string }
  | { type: 'board.save' }
  /** Load the game again (Refresh, after a reset). */
  | { type: 'game.reload' }
  /** The game was deleted (the delete dialog succeeded). */
  | { type: 'game.deleted' }
  | { type: 'load.retry' }
  /** Facts of the live socket (the `watchGame` actor): connected, and a game_state_update. */
  | { type: 'socket.connected' }
  | { type: 'game.stateReceived'; state: LiveState };

/** A message for the page's banner. */
export interface GameNotice {
  tone: 'success' | 'error';
  text: string;
}

const errorText = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

/**
 * The Event Game view of one event (product-spec sections 2 "Event Game view", 4 "Game status",
 * 5 "Game settings", 7 "Game", 8). Actors provided from src/: `loadGame`, `createGame`,
 * `randomizeGame`, `saveBoard`, `watchGame` (the socket) and `gameStatus` (the gameStatus chart
 * with its `changeStatus`).
 * - setup (no game): the settings form; `settings.submit` with a valid form → creating
 *   ('Deploying game, please wait...') → loading the new game; failures are notified.
 * - loading ('Loading game details...') → manage, or loadFailed with the error and a retry.
 * - manage: the game, the gameStatus child (spawned on the first load, told `game.statusChanged`
 *   on every later load and live update), the live socket `watchGame` (joins the game's room on
 *   every connect; game_state_update keeps the tracker live, see applyLiveState), the manual board
 *   editor and the Board Settings form.
 *   `settings.submit` while in-progress or paused opens the Confirm Board Randomization dialog
 *   (confirmingRandomize), otherwise randomizes at once; `board.save` checks the boxes with
 *   checkBoardTexts before savingBoard, then reloads; `game.reload` reloads in place;
 *   `game.deleted` goes back to setup.
 * Messages go to the banner through the `notify` action (provided from src/).
 */
export const eventGameMachine = setup({
  types: {
    context: {} as EventGameContext,
    events: {} as EventGameEvent,
    input: {} as EventGameInput,
  },
  actors: {
    loadGame: fromPromise<Game, { gameId: number }>(async () => {
      throw new Error("eventGame machine: actor 'loadGame' was not provided");
    }),
    createGame: fromPromise<{ gameId: number; message: string }, { settings: GameSettings }>(async () => {
      throw new Error("eventGame machine: actor 'createGame' was not provided");
    }),
    randomizeGame: fromPromise<{ game: Game; message: string }, { gameId: number; settings: GameSettings }>(async () => {
      throw new Error("eventGame machine: actor 'randomizeGame' was not provided");
    }),
    saveBoard: fromPromise<{ message: string }, { gameId: number; body: BoardBody }>(async () => {
      throw new Error("eventGame machine: actor 'saveBoard' was not provided");
    }),
    gameStatus: gameStatusMachine,
    /** The live socket of the game (src/realtime gameSocketActor): reports facts, takes SocketCommands. */
    watchGame: fromCallback<SocketCommand, { gameId: number }>(() => {
      throw new Error("eventGame machine: actor 'watchGame' was not provided");
    }),
  },
  guards: {
    hasGameId: ({ context }) => context.gameId !== null,
    isSettingsValid: ({ context }) => checkSettingsDraft(context.draft).error === null,
    isBoardValid: ({ context }) => context.game !== null && checkBoardTexts(context.game.board_size, context.snakesText, context.laddersText).ok,
    /** The game is in progress or paused (read from the gameStatus child). */
    isRunning: ({ context }) => context.statusRef?.getSnapshot().hasTag('running') ?? false,
  },
  actions: {
    assignSetting: assign(({ context }, e: { field: SettingsField; value: string }) => ({
      draft: changeSettingsDraft(context.draft, e.field, e.value),
    })),
    assignDefaultSettings: assign({ draft: () => draftFromSettings(DEFAULT_SETTINGS) }),
    assignSettingsOfGame: assign(({ context }) => ({ draft: context.game ? draftFromSettings(context.game) : context.draft })),
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
    joinGame: sendTo('socket', ({ context }): SocketCommand => ({ type: 'socket.join', gameId: context.gameId ?? 0 })),
    /**
     * A live update: the game is updated (the editor boxes too, unless they hold unsaved edits) and
     * the gameStatus child told the status; a skipped version asks for the full state again.
     */
    applyLiveState: enqueueActions(({ context, enqueue }, state: LiveState) => {
      if (!context.game) return;
      const next = applyLiveState(context.game, state);
      if (next === 'rejoin') {
        enqueue.sendTo('socket', { type: 'socket.join', gameId: context.game.id } satisfies SocketCommand);
        return;
      }
      if (next === context.game) return;
      const keepTexts = !boardTextsUnchanged(context.game.board_connections, context.snakesText, context.laddersText);
      enqueue.assign({ game: next, ...(keepTexts ? {} : boardTextsOf(next.board_connections)) });
      if (context.statusRef) enqueue.sendTo(context.statusRef, { type: 'game.statusChanged', status: next.status });
    }),
    dropGame: enqueueActions(({ enqueue }) => {
      enqueue(stopChild('gameStatus'));
      enqueue.assign({ statusRef: null, game: null, gameId: null, boardError: null });
    }),
    /** Hands a message to the page's banner; provided from src/. */
    notify: (_, _notice: GameNotice) => {},
  },
}).createMachine({
  id: 'eventGame',
  context: ({ input }) => ({
    gameId: input.gameId,
    game: null,
    draft: draftFromSettings(DEFAULT_SETTINGS),
    snakesText: '[]',
    laddersText: '[]',
    boardError: null,
    loadError: null,
    statusRef: null,
  }),
  initial: 'choosing',
  on: {
    'settings.change': { actions: { type: 'assignSetting', params: ({ event }) => event } },
  },
  states: {
    /** Transient: an existing game is loaded, otherwise the setup form shows. */
    choosing: {
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
      on: { 'load.retry': 'loading' },
    },
    setup: {
      initial: 'editing',
      entry: 'assignDefaultSettings',
      states: {
        editing: {
          on: { 'settings.submit': { guard: 'isSettingsValid', target: 'creating' } },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createGame',
            src: 'createGame',
            input: ({ context }) => ({ settings: parseSettingsDraft(context.draft) ?? DEFAULT_SETTINGS }),
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
      invoke: { id: 'socket', src: 'watchGame', input: ({ context }) => ({ gameId: context.gameId ?? 0 }) },
      on: {
        'socket.connected': { actions: 'joinGame' },
        'game.stateReceived': { actions: { type: 'applyLiveState', params: ({ event }) => event.state } },
        'board.change': { actions: { type: 'assignBoardText', params: ({ event }) => event } },
        'game.reload': '.reloading',
        'game.deleted': { target: 'setup', actions: 'dropGame' },
      },
      states: {
        idle: {
          on: {
            'settings.submit': [
              { guard: and(['isSettingsValid', 'isRunning']), target: 'confirmingRandomize' },
              { guard: 'isSettingsValid', target: 'randomizing' },
            ],
            'board.save': [
              { guard: 'isBoardValid', target: 'savingBoard' },
              { actions: { type: 'assignBoardError', params: null } },
            ],
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
              actions: [{ type: 'assignGame', params: ({ event }) => event.output }, { type: 'syncStatus', params: ({ event }) => event.output }],
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
