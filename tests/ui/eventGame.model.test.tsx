// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { Game } from '../../contract/gameApi';
import { applyInOrder, type HeldGame } from '../../contract/socket';
import { RELIEF_DRAFT_MESSAGES, type ReliefSettings } from '../../contract/game/settingsDraft';
import { statusLabel } from '../../contract/game/status';
import { eventGameMachine, type EventGameEvent } from '../../machines/eventGame.machine';
import { EventGameView } from '../../src/features/game/EventGameView';
import { ApiRequestError } from '../../src/api/client';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects, fakeGameEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame } from '../support/gameFixtures';

/**
 * Model-based test of the eventGame chart (docs/client.md §7, §11; docs/game-rules.md §4; docs/server.md
 * §3) through the rendered Event Game view: paths generated from the real
 * chart for an event with a game (in progress) and one without (setup, then the new PENDING game);
 * the fake server settles every call, the fake socket delivers a live update, and the person types
 * in the settings form and the board editor, presses Create & Deploy Game, Randomize Board (with its
 * confirmation while the game runs), Save Board Configuration, Refresh and Delete Game. Every state
 * is asserted on the screen with the documented texts, written here.
 */

type Snap = SnapshotFrom<typeof eventGameMachine>;
type Done<A extends string, T> = { type: `xstate.done.actor.${A}`; output: T };
type Failed<A extends string> = { type: `xstate.error.actor.${A}`; error: Error };
type ModelEvent =
  | EventGameEvent
  | Done<'loadGame' | 'reloadGame', Game>
  | Done<'createGame', { gameId: number; message: string }>
  | Done<'randomizeGame', { game: Game; message: string }>
  | Done<'saveBoard', { message: string }>
  | Done<'saveRules', { proofRequired: boolean }>
  | Done<'saveRelief', ReliefSettings>
  | Failed<'loadGame' | 'reloadGame' | 'createGame' | 'randomizeGame' | 'saveBoard' | 'saveRules' | 'saveRelief'>;

const CLAN_ID = 2;
const EVENT_ID = 3;
/**
 * The event's game, in progress, with a revert behind it (Red rolled twice, one reverted: 2 rolls,
 * 1 reverted, 1 turn); its settings pass the form's rules (23 tasks fill the 23 task tiles).
 */
const BASE = fixtureGame({ status: 'in-progress', num_easy_tasks: 23 });
const RUNNING: Game = {
  ...BASE,
  team_states: BASE.team_states.map((t) => (t.team_id === 11 ? { ...t, current_position: 5, position_history: [1, 5], revert_count: 1 } : t)),
};
/** Another event's game, paused: its board may change after the Confirm Board Randomization dialog. */
const PAUSED: Game = { ...RUNNING, id: 7, status: 'paused' };
/** The game created on the screen (another id): PENDING, no teams yet. */
const CREATED = fixtureGame({ id: 9, status: 'PENDING', num_easy_tasks: 23, team_states: [] });
const SNAKES_TEXT = '[\n  [6, 2]\n]';
const NEW_SNAKES = '[[20, 4]]';
const BROKEN_SNAKES = '[[6, 2]';
/** The board saved with NEW_SNAKES, one version on. */
const SAVED: Game = { ...RUNNING, version: 2, board_connections: [{ type: 'snake', start: 20, end: 4 }, RUNNING.board_connections[1]] };
/** A randomized board: another snake, one version on. */
const randomized = (g: Game): Game => ({ ...g, version: g.version + 1, board_connections: [{ type: 'snake', start: 18, end: 7 }, g.board_connections[1]] });
/** A live update: Red Dragons moved on to square 9. */
const MOVED: Game = {
  ...RUNNING,
  version: 2,
  team_states: RUNNING.team_states.map((t) => (t.team_id === 11 ? { ...t, current_position: 9, position_history: [1, 5, 9] } : t)),
};

const CREATED_TEXT = 'Game created and board deployed successfully.';
const RANDOMIZED_TEXT = 'Board randomized successfully.';
const BOARD_SAVED_TEXT = 'Board configuration updated successfully.';
const fail = <A extends string>(actor: A): Failed<A> => ({ type: `xstate.error.actor.${actor}`, error: new Error(`${actor} broke`) });

/** The loaded board as the editor fills it, with no unsaved edit or error: the steps below start only from here. */
const pristine = (s: Snap) => s.context.snakesText === SNAKES_TEXT && s.context.boardError === null && s.context.game?.version === 1;

/** What the person, the fake server and the live socket can cause in a state. */
function eventsOf(s: Snap): ModelEvent[] {
  const c = s.context;
  if (s.matches('loading')) {
    // An existing event's game runs; the game just created here is PENDING.
    return [{ type: 'xstate.done.actor.loadGame', output: c.gameId === CREATED.id ? CREATED : c.gameId === PAUSED.id ? PAUSED : RUNNING }, fail('loadGame')];
  }
  if (s.matches('loadFailed')) return [{ type: 'game.reload' }];
  if (s.matches({ setup: 'editing' })) {
    if (c.draft.num_snakes === '') return [{ type: 'settings.change', field: 'num_snakes', value: '5' }];
    // The proof box is checked by default; unticking it changes only the create payload.
    const untick: ModelEvent[] = c.proofRequired ? [{ type: 'rules.change', proofRequired: false }] : [];
    // Relief hours out of range are refused in the form (Create & Deploy Game waits); 4 h goes with the create payload.
    if (c.relief.afterHours === '200') return [{ type: 'relief.change', field: 'afterHours', value: '4' }];
    const relief: ModelEvent[] = c.relief.afterHours === '' ? [{ type: 'relief.change', field: 'afterHours', value: '200' }] : [];
    return [{ type: 'settings.change', field: 'num_snakes', value: '' }, { type: 'settings.submit' }, ...untick, ...relief];
  }
  if (s.matches({ setup: 'creating' })) return [{ type: 'xstate.done.actor.createGame', output: { gameId: CREATED.id, message: CREATED_TEXT } }, fail('createGame')];
  if (s.matches({ manage: 'confirmingRandomize' })) return [{ type: 'randomize.confirm' }, { type: 'randomize.cancel' }];
  if (s.matches({ manage: 'randomizing' })) return [{ type: 'xstate.done.actor.randomizeGame', output: { game: randomized(c.game!), message: RANDOMIZED_TEXT } }, fail('randomizeGame')];
  if (s.matches({ manage: 'savingRelief' })) return [{ type: 'xstate.done.actor.saveRelief', output: { relief_after_hours: null, relief_max_per_team: Number(c.relief.maxPerTeam) } }, fail('saveRelief')];
  if (s.matches({ manage: 'savingRules' })) return [{ type: 'xstate.done.actor.saveRules', output: { proofRequired: c.proofRequired } }, fail('saveRules')];
  if (s.matches({ manage: 'savingBoard' })) return [{ type: 'xstate.done.actor.saveBoard', output: { message: BOARD_SAVED_TEXT } }, fail('saveBoard')];
  if (s.matches({ manage: 'reloading' })) {
    // The server holds the rule saved last.
    const output = { ...(c.gameId === PAUSED.id ? PAUSED : c.snakesText === NEW_SNAKES ? SAVED : RUNNING), proof_required: c.game?.proof_required ?? false };
    return [{ type: 'xstate.done.actor.reloadGame', output }, fail('reloadGame')];
  }
  if (s.matches({ manage: 'idle' })) {
    // A game not started: Randomize Board at once, or Delete Game.
    if (c.game?.status === 'PENDING') return pristine(s) ? [{ type: 'settings.submit' }, { type: 'game.deleted' }] : [];
    // Paused: Randomize Board asks first.
    if (c.game?.status === 'paused') return pristine(s) ? [{ type: 'settings.submit' }] : [];
    if (c.snakesText !== SNAKES_TEXT && c.boardError === null && c.game?.version === 1) return [{ type: 'board.save' }];
    if (!pristine(s)) return [];
    // A relief limit typed on the running game is saved (PUT .../rules); once saved the walk ends there.
    if (c.relief.maxPerTeam !== String(c.game?.relief_max_per_team)) return [{ type: 'relief.save' }];
    if (c.game?.relief_max_per_team !== 2) return [];
    // In progress: no Randomize Board and no Delete Game (the guard below checks the chart refuses the first).
    return [
      { type: 'board.change', box: 'snakes', value: BROKEN_SNAKES },
      { type: 'board.change', box: 'snakes', value: NEW_SNAKES },
      { type: 'game.reload' },
      ordered(c.game, MOVED),
      { type: 'rules.change', proofRequired: !c.proofRequired },
      { type: 'relief.change', field: 'maxPerTeam', value: '3' },
    ];
  }
  return [];
}
const serialize = (s: Snap, e?: ModelEvent) => {
  const c = s.context;
  return JSON.stringify([s.value, c.relief, c.game?.relief_max_per_team ?? null, c.proofRequired, c.game?.proof_required ?? null, c.gameId, c.game?.version ?? null, c.game?.status ?? null, c.game?.team_states.length ?? null, c.draft, c.snakesText, c.boardError, c.loadError, e?.type ?? null]);
};

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  socket: FakeSocket | null;
  /** The banner text the last step must have shown (checked once, then cleared). */
  banner: string | null;
}

const settle = (w: World, name: string, e: { type: string; output?: unknown; error?: Error }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, new ApiRequestError(e.error!.message, 500))));
const click = (w: World, name: string) => w.user.click(screen.getByRole('button', { name }));
/** The settings form (also while a dialog hides the page from the accessibility tree). */
const settingsForm = () => document.querySelector<HTMLFormElement>('form.game-settings')!;
const snakesBox = () => screen.getByLabelText('Snakes config (JSON)') as HTMLTextAreaElement;

type Executor = ModelExecutor<World, Snap, ModelEvent>;
/** The liveGame chart's report of a game_state_update the fake server sends in version order: one step onto the game held. */
function ordered(held: Game | null, update: Game): ModelEvent {
  const { game, steps, late } = applyInOrder<HeldGame>(held, [], update);
  return { type: 'game.ordered', game: game!, steps, late };
}
const UNUSED_FACTS = ['game.logReceived', 'game.teamUpdated', 'action.failed'] as const;
const notUsed = (type: string) => async () => {
  throw new Error(`${type} is not taken by the eventGame chart`);
};
const EXECUTORS = {
  'xstate.done.actor.loadGame': (w, { event }) => settle(w, 'fetchGame', event),
  'xstate.error.actor.loadGame': (w, { event }) => settle(w, 'fetchGame', event),
  'xstate.done.actor.reloadGame': (w, { event }) => settle(w, 'fetchGame', event),
  'xstate.error.actor.reloadGame': async (w, { event }) => {
    w.banner = 'reloadGame broke';
    await settle(w, 'fetchGame', event);
  },
  'game.reload': (w) => click(w, screen.queryByRole('button', { name: 'Retry' }) ? 'Retry' : 'Refresh'),
  'settings.change': async (w, { event }) => {
    if (event.type !== 'settings.change') return;
    const input = within(settingsForm()).getByLabelText('Number of snakes');
    await w.user.clear(input);
    if (event.value) await w.user.type(input, event.value);
  },
  'rules.change': (w) => w.user.click(within(settingsForm()).getByRole('checkbox', { name: PROOF_BOX })),
  'relief.change': async (w, { event }) => {
    if (event.type !== 'relief.change') return;
    const input = within(settingsForm()).getByLabelText(event.field === 'afterHours' ? RELIEF_HOURS : RELIEF_MAX);
    await w.user.clear(input);
    if (event.value) await w.user.type(input, event.value);
  },
  'relief.save': (w) => click(w, 'Save relief settings'),
  'xstate.done.actor.saveRelief': async (w, { event, prev }) => {
    if (event.type !== 'xstate.done.actor.saveRelief') return;
    expect(w.fx.calls('saveGameRelief').at(-1)).toEqual([CLAN_ID, EVENT_ID, RUNNING.id, { relief_after_hours: null, relief_max_per_team: Number(prev.context.relief.maxPerTeam) }]);
    w.banner = 'Relief is off.';
    await settle(w, 'saveGameRelief', event);
  },
  'xstate.error.actor.saveRelief': async (w, { event }) => {
    w.banner = 'saveRelief broke';
    await settle(w, 'saveGameRelief', event);
  },
  'xstate.done.actor.saveRules': async (w, { event }) => {
    if (event.type !== 'xstate.done.actor.saveRules') return;
    w.banner = event.output.proofRequired ? 'Rolls now wait for an approved proof.' : 'Rolls no longer wait for proof.';
    await settle(w, 'saveGameRules', event);
  },
  'xstate.error.actor.saveRules': async (w, { event }) => {
    w.banner = 'saveRules broke';
    await settle(w, 'saveGameRules', event);
  },
  'settings.submit': (w) => w.user.click(within(settingsForm()).getByRole('button', { name: /^(Create & Deploy Game|Randomize Board)$/ })),
  'xstate.done.actor.createGame': async (w, { event, prev }) => {
    // The relief settings go with the create payload (off unless typed).
    const hours = prev.context.relief.afterHours === '' ? null : Number(prev.context.relief.afterHours);
    expect(w.fx.calls('createGame').at(-1)?.[2]).toMatchObject({ relief_after_hours: hours, relief_max_per_team: 2 });
    w.banner = CREATED_TEXT;
    await settle(w, 'createGame', { ...event, output: { game: { id: CREATED.id }, message: CREATED_TEXT } });
  },
  'xstate.error.actor.createGame': async (w, { event }) => {
    w.banner = 'createGame broke';
    await settle(w, 'createGame', event);
  },
  'randomize.confirm': (w) => click(w, 'Yes, Randomize Board'),
  'randomize.cancel': (w) => click(w, 'No, Keep Current Board'),
  'xstate.done.actor.randomizeGame': async (w, { event }) => {
    w.banner = RANDOMIZED_TEXT;
    await settle(w, 'randomizeGame', event);
  },
  'xstate.error.actor.randomizeGame': async (w, { event }) => {
    w.banner = 'randomizeGame broke';
    await settle(w, 'randomizeGame', event);
  },
  'board.change': async (w, { event }) => {
    if (event.type !== 'board.change') return;
    await w.user.clear(snakesBox());
    await w.user.click(snakesBox());
    await w.user.paste(event.value);
  },
  'board.save': (w) => click(w, 'Save Board Configuration'),
  'xstate.done.actor.saveBoard': async (w, { event }) => {
    expect(w.fx.calls('saveBoard').at(-1)).toEqual([CLAN_ID, EVENT_ID, RUNNING.id, { snakes_config: [[20, 4]], ladders_config: [[3, 14]] }]);
    w.banner = BOARD_SAVED_TEXT;
    await settle(w, 'saveBoard', event);
  },
  'xstate.error.actor.saveBoard': (w, { event }) => settle(w, 'saveBoard', event),
  // Delete Game (Wipe Board), its confirmation, the server's answer, Close.
  'game.deleted': async (w) => {
    await click(w, 'Delete Game (Wipe Board)');
    const d = await screen.findByRole('dialog');
    within(d).getByRole('heading', { name: 'Confirm Game Deletion' });
    await w.user.click(within(d).getByRole('button', { name: 'Delete Game' }));
    await act(() => w.fx.resolve('deleteGame', { message: 'Game deleted successfully.' }));
    await w.user.click(await within(d).findByRole('button', { name: 'Close' }));
  },
  // The server pushes the game's new state over the live socket (each update the liveGame chart's report holds).
  'game.ordered': async (w, { event }) => {
    if (event.type !== 'game.ordered') return;
    await waitFor(() => expect(w.socket).not.toBeNull());
    for (const step of event.steps) act(() => w.socket!.serverSends('game_state_update', { game_state: step.update }));
  },
  // Facts of the live socket this chart does not use (the Event Game view shows no log or refusals).
  'game.logReceived': notUsed('game.logReceived'),
  'game.teamUpdated': notUsed('game.teamUpdated'),
  'action.failed': notUsed('action.failed'),
} satisfies Record<ModelEvent['type'], Executor>;

const PROOF_BOX = 'Require approved proof before the next roll';
const RELIEF_HOURS = 'Hours on a square before a new task may be asked for';
const RELIEF_MAX = 'New tasks per team';
const COUNT_LABELS = ['Number of snakes', 'Number of ladders', 'Max reverts allowed'];
const busyText = (text: string, shown: boolean) => (shown ? screen.getByText(text) : expect(screen.queryByText(text)).toBeNull());

/** Rolls, reverts and turns of team states, counted here without the code under test: turns = history length - 1, rolls = turns + reverts. */
function countsOf(g: Game) {
  const turns = g.team_states.reduce((sum, t) => sum + t.position_history.length - 1, 0);
  const reverts = g.team_states.reduce((sum, t) => sum + t.revert_count, 0);
  return { turns, reverts, rolls: turns + reverts };
}

/** What Board Settings offers for each status: its note, whether Randomize Board and Delete Game show. */
const BOARD_SETTINGS: Record<string, { note: RegExp; randomize: boolean; remove: boolean }> = {
  PENDING: { note: /^Randomize Board places new snakes, ladders and tasks/, randomize: true, remove: true },
  'in-progress': { note: /^The game is in progress, so its board stays as it is.*Pause the game to randomize the board; reset the game to delete it\.$/, randomize: false, remove: false },
  paused: { note: /^The game is paused\..*after a confirmation.*To delete the game, reset it first\.$/, randomize: true, remove: false },
};

/** The settings form holds the chart's draft; the documented error for an invalid one. */
function expectSettingsForm(s: Snap) {
  const form = settingsForm();
  const values = COUNT_LABELS.map((l) => (within(form).getByLabelText(l) as HTMLInputElement).value);
  expect(values).toEqual([s.context.draft.num_snakes, s.context.draft.num_ladders, s.context.draft.max_reverts_allowed]);
  const alert = within(form).queryAllByRole('alert', { hidden: true }).find((a) => a.getAttribute('data-testid') !== 'relief-error') ?? null;
  if (s.context.draft.num_snakes === '') expect(alert?.textContent).toBe('All fields are required.');
  else expect(alert).toBeNull();
  // The relief fields hold the chart's draft; hours out of 1..168 are refused with the form's message.
  expect((within(form).getByLabelText(RELIEF_HOURS) as HTMLInputElement).value).toBe(s.context.relief.afterHours);
  expect((within(form).getByLabelText(RELIEF_MAX) as HTMLInputElement).value).toBe(s.context.relief.maxPerTeam);
  const reliefError = within(form).queryByTestId('relief-error');
  if (s.context.relief.afterHours === '200') {
    expect(reliefError?.textContent).toBe(RELIEF_DRAFT_MESSAGES.afterHours);
    expect(screen.getByRole('button', { name: 'Create & Deploy Game' }).hasAttribute('disabled')).toBe(true);
  } else expect(reliefError).toBeNull();
  const proofBox = within(form).getByRole('checkbox', { name: PROOF_BOX, hidden: true }) as HTMLInputElement;
  expect(proofBox.checked).toBe(s.context.proofRequired);
  expect(proofBox.disabled).toBe(!(s.matches({ setup: 'editing' }) || s.matches({ manage: 'idle' })));
}

const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  loading: async () => {
    screen.getByText('Loading game details...');
    expect(screen.queryByRole('heading', { name: 'Game Status & Results' })).toBeNull();
  },
  loadFailed: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe('loadGame broke');
    screen.getByRole('button', { name: 'Retry' });
  },
  setup: async (s, w) => {
    await screen.findByRole('heading', { name: 'Setup New Game' });
    screen.getByText(/^The game board for this event has not been created yet\./);
    expect(screen.queryByRole('heading', { name: 'Game Status & Results' })).toBeNull();
    expectSettingsForm(s);
    if (w.banner) {
      expect((await screen.findByTestId('game-banner')).textContent).toContain(w.banner);
      w.banner = null;
    }
  },
  'setup.editing': async (s) => {
    await waitFor(() => busyText('Deploying game, please wait...', false));
    expect(screen.getByRole('button', { name: 'Create & Deploy Game' }).hasAttribute('disabled')).toBe(s.context.draft.num_snakes === '' || s.context.relief.afterHours === '200');
  },
  'setup.creating': async () => {
    screen.getByText('Deploying game, please wait...');
    expect(screen.getByRole('button', { name: 'Create & Deploy Game' }).hasAttribute('disabled')).toBe(true);
  },
  // The game: status badge, tracker, team rows, the editor boxes (and their error), the settings; a step's banner.
  manage: async (s, w) => {
    const g = s.context.game!;
    await screen.findByRole('heading', { name: 'Game Status & Results', hidden: true });
    expect(screen.getByTestId('game-status').dataset.status).toBe(g.status);
    expect(screen.getByTestId('game-status').textContent).toBe(statusLabel(g.status));
    expect(screen.queryAllByTestId('team-position').map((td) => td.textContent)).toEqual(g.team_states.map((t) => String(t.current_position)));
    if (g.team_states.length === 0) screen.getByText('No teams in this event yet. Teams created in Manage Teams get a place on the board at once.');
    const counts = countsOf(g);
    expect(screen.getByTestId('turns-processed').textContent).toBe(String(counts.turns));
    expect(screen.getByTestId('rolls-count').textContent).toBe(`${counts.rolls} roll${counts.rolls === 1 ? '' : 's'}${counts.reverts ? `, ${counts.reverts} reverted` : ''}`);
    expect(screen.getByTestId('reverts-used').textContent).toBe(`${counts.reverts} / ${g.max_reverts_allowed * g.team_states.length}`);
    expect(screen.queryAllByTestId('team-turns').map((td) => td.textContent)).toEqual(g.team_states.map((t) => String(t.position_history.length - 1)));
    expect(screen.queryAllByTestId('team-rolls').map((td) => td.textContent)).toEqual(g.team_states.map((t) => String(t.position_history.length - 1 + t.revert_count)));
    const offer = BOARD_SETTINGS[g.status];
    expect(screen.getByTestId('board-lock').textContent).toMatch(offer.note);
    expect(!!screen.queryByRole('button', { name: 'Randomize Board', hidden: true })).toBe(offer.randomize);
    expect(!!screen.queryByRole('button', { name: 'Delete Game (Wipe Board)', hidden: true })).toBe(offer.remove);
    // The fixture board: 21 EASY squares with a task (23 task tiles, 2 connection starts).
    expect(screen.getByTestId('board-tasks').textContent).toBe('This board: 21 of 21 task squares hold a task; the 2 squares where a snake or ladder starts hold none.');
    expect(snakesBox().value).toBe(s.context.snakesText);
    const boardError = document.querySelector('.board-editor [role="alert"]');
    if (s.context.snakesText === BROKEN_SNAKES && s.context.boardError) expect(boardError?.textContent).toMatch(/^Invalid JSON format in Snakes config: /);
    else if (s.context.boardError) expect(boardError?.textContent).toBe('saveBoard broke');
    else expect(boardError).toBeNull();
    expectSettingsForm(s);
    if (w.banner) {
      expect((await screen.findByTestId('game-banner')).textContent).toContain(w.banner);
      w.banner = null;
    }
  },
  'manage.idle': async (s) => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    for (const text of ['Refreshing game data...', 'Saving board configuration...', 'Randomizing board...']) busyText(text, false);
    const names = ['Save Board Configuration', 'Refresh', ...(BOARD_SETTINGS[s.context.game!.status].randomize ? ['Randomize Board'] : [])];
    for (const name of names) expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(false);
    // In progress the board fields are read-only; the proof box still works.
    const locked = s.context.game!.status === 'in-progress';
    expect(within(settingsForm()).getByLabelText('Number of snakes').matches(':disabled')).toBe(locked);
  },
  'manage.confirmingRandomize': async () => {
    const d = await screen.findByRole('dialog');
    within(d).getByRole('heading', { name: 'Confirm Board Randomization' });
    within(d).getByText(
      'The game is currently PAUSED. Randomizing the board permanently changes the snakes and ladders (and the tasks on the squares). Team positions stay where they are. This is not a reset.',
    );
  },
  'manage.randomizing': async () => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    screen.getByText('Randomizing board...');
    expect(screen.getByRole('button', { name: 'Randomize Board' }).hasAttribute('disabled')).toBe(true);
  },
  'manage.savingRelief': async () => {
    expect(screen.getByRole('button', { name: 'Save relief settings' }).hasAttribute('disabled')).toBe(true);
    for (const name of ['Save Board Configuration', 'Refresh']) expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
  },
  'manage.savingRules': async (s) => {
    expect(s.context.game?.proof_required).toBe(!s.context.proofRequired);
    for (const name of ['Save Board Configuration', 'Refresh']) expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
  },
  'manage.savingBoard': async () => {
    screen.getByText('Saving board configuration...');
    expect(screen.getByRole('button', { name: 'Save Board Configuration' }).hasAttribute('disabled')).toBe(true);
  },
  'manage.reloading': async () => {
    await screen.findByText('Refreshing game data...');
    expect(screen.getByRole('button', { name: 'Refresh' }).hasAttribute('disabled')).toBe(true);
  },
};

modelTests<Snap, ModelEvent, World>({
  name: 'eventGame',
  machine: eventGameMachine,
  dropPrefixPaths: true,
  inputs: [{ gameId: RUNNING.id }, { gameId: PAUSED.id }, { gameId: null }],
  // The chart refuses Randomize Board in progress (the screen offers no button for it); paused it asks first.
  guards: (paths) => {
    const idle = paths.flatMap((p) => p.steps.map((st) => st.state)).filter((st) => st.matches({ manage: 'idle' }));
    const running = idle.filter((st) => st.context.game?.status === 'in-progress');
    expect(running.length).toBeGreaterThan(0);
    for (const st of running) expect(st.can({ type: 'settings.submit' })).toBe(false);
    for (const st of idle.filter((x) => x.context.game?.status === 'paused' && pristine(x))) expect(st.can({ type: 'settings.submit' })).toBe(true);
  },
  passingThrough: ['resolving'],
  events: eventsOf,
  serialize,
  executors: EXECUTORS,
  notDriven: [...UNUSED_FACTS],
  assertions: ASSERTIONS,
  label: (e) =>
    e.type === 'settings.change' || e.type === 'board.change'
      ? `${e.type}(${JSON.stringify(e.value)})`
      : e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)'),
  render: (input) => {
    const fx = new FakeEffects();
    const w: World = { fx, user: userEvent.setup(), socket: null, banner: null };
    const effects = fakeGameEffects(fx, () => (w.socket = new FakeSocket()));
    const gameId = (input as { gameId: number | null }).gameId;
    const router = createMemoryRouter([{ path: '*', element: <EventGameView clanId={CLAN_ID} eventId={EVENT_ID} gameId={gameId} onBack={() => {}} effects={effects} /> }]);
    render(<RouterProvider router={router} />);
    return w;
  },
});
