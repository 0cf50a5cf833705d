// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromCallback } from 'xstate';
import type { Game, LogEntry } from '../../contract/gameApi';
import { applyInOrder, type GameProgress, type GameUpdate } from '../../contract/socket';
import type { GameStatus } from '../../contract/game';
import type { HeldGame } from '../../contract/socket';
import { statusClass, statusLabel } from '../../contract/game/status';
import { leaderCanRevert, viewerRoleOf } from '../../contract/game/roles';
import { GAME_VIEW_MESSAGES } from '../../contract/game/viewTexts';
import { gamePlayMachine, type GamePlayEvent } from '../../machines/gamePlay.machine';
import { ROLL_MOMENT_TIMING } from '../../machines/rollMoment.machine';
import type { LastMove } from '../../contract/socket';
import { GAME_ACTION_TEXTS, RELIEF_CONFIRM_TEXTS, REVERT_TEXTS } from '../../src/features/play/texts';
import { RELIEF_VIEW_TEXTS } from '../../contract/game/reliefView';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { GamePlayPage } from '../../src/features/play/GamePlayPage';
import type { GameScreenEffects } from '../../src/features/play/effects';
import { modelTests, type ModelExecutor, type ModelStep } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame, progressOf, type FixtureRole } from '../support/gameFixtures';
import { renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the Game Action panel (docs/client.md §9, §11; docs/game-rules.md §6,
 * §11): paths generated from the gamePlay chart by the
 * chart-model harness, driven through the rendered GamePlayPage with a fake REST load and a fake socket
 * (the test plays the server), for a Leader, a non-leader member and a user on no team, through
 * every status, rolls (the server's update reports the move: the screen keeps the game from before
 * the roll until the rollMoment chart reports the pawn arrived), reverts through their confirm
 * modal (the confirmAction chart: Revert Turn, then the outcome in the modal), refusals (the
 * message shows; its fading is the banner chart's, tested in banner.model.test.tsx) and the timed
 * confetti; the socket's join_game answer ending a load (also one that failed), a log entry and a
 * team change arriving by themselves (docs/server.md §6), and another team's roll while a moment
 * plays.
 */

const WINNERS = [{ name: 'Red Dragons', color: '#cc2222' }];
const REFUSAL = 'Only a Leader of this team may roll.';
/** Load errors the loader raises; `text` makes them tell apart when @xstate/graph stringifies events. */
const loadError = (message: string) => Object.assign(new Error(message), { text: message });
const LOAD_FAILED = loadError(GAME_VIEW_MESSAGES.loadFailed);
const NOT_FOUND = loadError(GAME_VIEW_MESSAGES.notFound);

/** The chart's timed event (checked against the chart in the guard test). */
const CONFETTI_END = 'xstate.after.confettiDuration.gamePlay.live.play.finished.celebrating';
const afterEvent = (id: string) => gamePlayMachine.getStateNodeById(id).after[0].eventType;

type TimerEvent = { type: typeof CONFETTI_END };
type SyntheticEvent =
  | { type: 'xstate.done.actor.loadGame'; output: Game }
  | { type: 'xstate.error.actor.loadGame'; error: Error };
/**
 * `game.updated` and `roll.moved` are raised by the chart itself, never sent; `roll.arrived` comes
 * from the rollMoment chart as its time passes; `game.reload` is sent by no control of the play
 * screen (see `uncovered`).
 */
type ModelEvent = Exclude<GamePlayEvent, { type: 'game.reload' | 'game.updated' | 'roll.moved' }> | SyntheticEvent | TimerEvent;

/**
 * The liveGame chart's report of one game_state_update the fake server sends, onto `held` (the
 * newest game held): in version order, as the server sends them here, it is one step.
 */
function received(held: HeldGame | null, update: GameUpdate): ModelEvent {
  const { game, steps, late } = applyInOrder(held, [], update);
  return { type: 'game.ordered', game: game!, steps, late };
}

/** The move the fake server reports with a roll of team 11 from square 1 to 7. */
const MOVE: LastMove = { team_id: 11, die: 6, from: 1, landing: 7, to: 7, via: null, path: [1, 2, 3, 4, 5, 6, 7] };
/** Time for the whole roll moment of MOVE: the tumble, the walk, and a step more. */
const MOMENT_MS = ROLL_MOMENT_TIMING.tumbleTick * (ROLL_MOMENT_TIMING.tumbleTicks + 1) + ROLL_MOMENT_TIMING.walkStep * (MOVE.path.length + 1);
const momentPlaying = (s: any) => s.matches({ live: { moment: 'playing' } });

const STATUSES: GameStatus[] = ['PENDING', 'READY', 'in-progress', 'paused'];
/** One revert a team (keeps the Leader's roll, revert, roll short: the reverts are then used up). */
const MAX_REVERTS = 1;
/** The game as the REST load (or the socket's join_game answer) gives it to a viewer of `role`. */
const loadedGame = (role: FixtureRole) =>
  fixtureGame({ max_reverts_allowed: MAX_REVERTS, relief_after_hours: 1, team_states: fixtureGame().team_states.map((t) => (t.team_id === 11 ? { ...t, task_state: 'open' as const, relief_count: 0 } : t)) }, role);
/** With relief on (docs/game-rules.md §15) and team 11's task open for hours, its Leader may ask for a new task. */
const SUBSTITUTE = { description: 'Catch 50 anglerfish', difficulty: 'EASY' as const };
const RELIEF_REFUSAL = 'No relief left for Red Dragons.';

/** The update that gives team 11 the substitute (its task open anew, its clock restarted). */
function reliefGranted(game: HeldGame): ModelEvent {
  const progress = progressOf(game as Game, {});
  const team_states = progress.team_states.map((t) => (t.team_id === 11 ? { ...t, task_state: 'open' as const, square_since: '2025-05-01T10:07:00.000Z', task_override: SUBSTITUTE } : t));
  return received(game, { ...progress, team_states });
}
/** A Server entry of the Live Game Log that arrives by itself (new_log_entry). */
const LOG_ENTRY: LogEntry = { id: 2, timestamp: '2025-05-01T10:06:00.000Z', team_name: 'Server', team_color: null, message: 'Game paused.' };
/** Team 12's new name and colour, as a team_update brings it. */
const RENAMED = { id: 12, name: 'Azure Moons', color: '#2244cc', members: [] };

/** Square of team `id` in a held game. */
const squareOf = (game: HeldGame, id: number) => game.team_states.find((t) => t.team_id === id)!.current_position;

/** The update of team 12's roll from square 1 to 7 (on top of the newest game held, also while team 11's moment plays). */
function otherTeamRolls(base: HeldGame): ModelEvent {
  const progress = progressOf(base as Game, {});
  const team_states = progress.team_states.map((t) => (t.team_id === 12 ? { ...t, current_position: 7, position_history: [1, 7], square_since: '2025-05-01T10:05:30.000Z' } : t));
  return received(base, { ...progress, team_states, last_move: { ...MOVE, team_id: 12 } });
}

/** What the server may send or the person may do in a state (only what the screen offers). */
function eventsFor(s: any): ModelEvent[] {
  // The socket's join_game answer (the full game) can come before the REST load ends, or after it failed.
  const joined: ModelEvent = received(null, loadedGame('leader'));
  if (s.matches('loading')) {
    return [
      ...(['leader', 'member', 'none'] as FixtureRole[]).map((role) => ({ type: 'xstate.done.actor.loadGame' as const, output: loadedGame(role) })),
      { type: 'xstate.error.actor.loadGame', error: NOT_FOUND },
      { type: 'xstate.error.actor.loadGame', error: LOAD_FAILED },
      joined,
    ];
  }
  if (s.matches('failed')) return [joined];
  const game: HeldGame = s.context.game;
  const leader = viewerRoleOf(game) === 'leader';
  // Team 12 rolls once, while team 11's moment plays; the game after it is not walked further (it repeats team 11's steps).
  const otherMoved = squareOf(s.context.arriving ?? game, 12) !== 1;
  if (momentPlaying(s)) return otherMoved ? [{ type: 'roll.arrived' }] : [{ type: 'roll.arrived' }, otherTeamRolls(s.context.arriving)];
  if (otherMoved) return [];
  if (s.matches({ live: { play: { finished: 'celebrating' } } })) {
    // A team renamed after the finish: the join_game answer to the rejoin brings the full game (the confetti is not started again).
    const renamed = { ...(game as Game), version: game.version + 1, team_states: game.team_states.map((t) => (t.team_id === 12 ? { ...t, team_name: RENAMED.name } : t)) };
    return [{ type: CONFETTI_END }, ...(leader && game.version === 2 ? [received(game, renamed as Game)] : [])];
  }
  if (s.matches({ live: { play: 'finished' } })) return [];
  const update = (change: Parameters<typeof progressOf>[1]): ModelEvent => received(game, progressOf(game as Game, change));
  const list: ModelEvent[] = [];
  if (s.matches({ live: { play: { inProgress: 'askingRelief' } } })) return [{ type: 'action.failed', message: RELIEF_REFUSAL }, reliefGranted(game)];
  if (s.matches({ live: { play: { inProgress: 'rolling' } } }) || s.matches({ live: { play: { inProgress: 'reverting' } } })) {
    list.push({ type: 'action.failed', message: REFUSAL });
    list.push(
      s.matches({ live: { play: { inProgress: 'rolling' } } })
        ? received(game, { ...progressOf(game as Game, { position: 7 }), last_move: MOVE })
        : update({ revert: true }),
    );
    return list;
  }
  // The server's status changes, to the game as loaded (keeps the model small).
  const fresh = game.version === 1 && s.context.log[0]?.id === 1;
  if (fresh) for (const status of STATUSES) if (status !== game.status) list.push(update({ status }));
  if (fresh) {
    list.push(update({ status: 'finished', position: 25, winners: WINNERS }));
    list.push(update({ status: 'completed' }));
  }
  // A log entry and a team change arrive by themselves (shown to a member, the smallest screen).
  if (fresh && viewerRoleOf(game) === 'member' && s.matches({ live: { play: 'inProgress' } })) {
    list.push({ type: 'game.logReceived', entry: LOG_ENTRY }, { type: 'game.teamUpdated', team: RENAMED });
  }
  // A roll the server refuses after its pause went out (the update came first): the message shows outside play too.
  if (leader && game.version === 2 && s.matches({ live: { play: 'paused' } })) list.push({ type: 'action.failed', message: REFUSAL });
  // Team 11 rolls from square 1 only (1 → 7), so the rolls and reverts end once the revert is used up.
  if (s.can({ type: 'game.roll' }) && squareOf(game, 11) === 1) list.push({ type: 'game.roll' });
  if (s.can({ type: 'game.revert' })) list.push({ type: 'game.revert' });
  // The Leader asks for relief on the game as loaded (a refusal or the substitute answers it).
  if (s.can({ type: 'game.relief' }) && game.version === 1) list.push({ type: 'game.relief' });
  return list;
}

/** Snapshots of the gamePlay chart, loosely typed: the held game is read through contract helpers. */
type Snap = any;

interface World {
  /** join_game sent so far: one on connect, one more for each rejoin the page asks for. */
  joins: number;
  /** Rolls asked for so far (each sends one roll). */
  rolls: number;
  /** Reverts confirmed so far (each sends one revert; a cancelled confirm sends none). */
  reverts: number;
  /** Relief requests so far (each sends one request_relief). */
  reliefs: number;
  fx: FakeEffects;
  socket: () => FakeSocket;
  user: ReturnType<typeof userEvent.setup>;
  confetti: { launched: number; stopped: number };
}
/** Executors read the event's payload as the step gives it. */
type Step = ModelStep<Snap, any>;

const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

const EXECUTORS = {
  'xstate.done.actor.loadGame': async (w, { event: e }: Step) => act(() => w.fx.resolve('loadGame', e.output)),
  'xstate.error.actor.loadGame': async (w, { event: e }: Step) => act(() => w.fx.reject('loadGame', e.error)),
  // The server sends each update the report holds as a game_state_update.
  'game.ordered': async (w, { event: e }: Step) => {
    const confirming = revertDialog();
    for (const step of e.steps) await act(() => w.socket().serverSends('game_state_update', { game_state: step.update }));
    // The revert the modal asked for went through: the modal closes and the fading banner says so.
    if (confirming) {
      await waitFor(() => expect(revertDialog()).toBeNull());
      expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe(REVERT_TEXTS.done);
    }
  },
  'action.failed': async (w, { event: e }: Step) => {
    const confirming = revertDialog();
    await act(() => w.socket().serverSends('action_error', { message: e.message }));
    if (confirming) {
      // A refused revert shows in its modal, not in the panel.
      expect((await within(confirming).findByText(e.message)).textContent).toBe(e.message);
      expect(within(panel()).queryByTestId('action-error')).toBeNull();
      await w.user.click(within(confirming).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(revertDialog()).toBeNull());
      return;
    }
    // The refusal shows in the panel (the banner chart times it out).
    const el = within(panel()).getByTestId('action-error');
    expect(el.textContent).toBe(e.message);
    expect(el.className).toBe('action-message');
  },
  'game.roll': async (w) => {
    await w.user.click(screen.getByRole('button', { name: 'Roll Dice' }));
    w.rolls += 1;
  },
  'game.revert': async (w) => {
    // Revert asks first: Cancel sends nothing; Revert Turn sends the revert.
    await w.user.click(screen.getByRole('button', { name: REVERT_TEXTS.button }));
    await w.user.click(within(await findRevertDialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(revertDialog()).toBeNull());
    expect(w.socket().sentOf('revert_roll')).toHaveLength(w.reverts);
    await w.user.click(screen.getByRole('button', { name: REVERT_TEXTS.button }));
    await w.user.click(within(await findRevertDialog()).getByRole('button', { name: REVERT_TEXTS.confirm }));
    w.reverts += 1;
  },
  'game.relief': async (w) => {
    // Relief asks first: Cancel sends nothing; Ask for a New Task sends the request.
    await w.user.click(within(panel()).getByRole('button', { name: RELIEF_VIEW_TEXTS.button }));
    const ask = await screen.findByRole('dialog', { name: RELIEF_CONFIRM_TEXTS.title });
    expect(within(ask).getByText(RELIEF_CONFIRM_TEXTS.body('Red Dragons', 2))).toBeTruthy();
    await w.user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: RELIEF_CONFIRM_TEXTS.title })).toBeNull());
    expect(w.socket().sentOf('request_relief')).toHaveLength(w.reliefs);
    await w.user.click(within(panel()).getByRole('button', { name: RELIEF_VIEW_TEXTS.button }));
    await w.user.click(within(await screen.findByRole('dialog', { name: RELIEF_CONFIRM_TEXTS.title })).getByRole('button', { name: RELIEF_CONFIRM_TEXTS.confirm }));
    w.reliefs += 1;
  },
  'game.logReceived': async (w, { event: e }: Step) => act(() => w.socket().serverSends('new_log_entry', { log_entry: e.entry })),
  // A team changed: the page asks for the full game again (join_game).
  'game.teamUpdated': async (w, { event: e }: Step) => {
    await act(() => w.socket().serverSends('team_update', { updated_team_data: e.team }));
    w.joins += 1;
  },
  'roll.arrived': async () => advance(MOMENT_MS),
  [CONFETTI_END]: async () => advance(15_000),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

// `hidden`: the panel is found also while a modal makes the page behind it inert.
const panel = () => screen.getByRole('region', { name: /Roll Dice for Your Team|Leader Action Required|Join a Team to Roll/, hidden: true });
const revertDialog = () => screen.queryByRole('dialog', { name: REVERT_TEXTS.title });
const findRevertDialog = () => screen.findByRole('dialog', { name: REVERT_TEXTS.title });
/** The square Team Positions shows for team 11 (Red Dragons). */
const shownSquare = () => screen.getAllByTestId('team-position').find((li) => li.getAttribute('data-team') === 'Red Dragons')?.getAttribute('data-position');

function expectTitle(game: HeldGame) {
  const role = viewerRoleOf(game);
  const title = { leader: GAME_ACTION_TEXTS.leaderTitle, member: GAME_ACTION_TEXTS.memberTitle, none: GAME_ACTION_TEXTS.noTeamTitle }[role];
  expect(within(panel()).getByRole('heading', { level: 2 }).textContent).toBe(title);
}
function expectNote(text: string | null) {
  const note = within(panel()).queryByTestId('action-note');
  if (text === null) expect(note).toBeNull();
  else expect(note?.textContent).toBe(text);
}
function expectNoActionButtons() {
  expect(within(panel()).queryByRole('button', { name: /Roll Dice|Rolling/ })).toBeNull();
  expect(within(panel()).queryByRole('button', { name: /Revert Last Turn|Reverting/ })).toBeNull();
}
/** The header badge shows the status's label and keeps the wire value as its style (data-status). */
function expectStatusBadge(status: string) {
  const badge = document.querySelector<HTMLElement>('.game-header .status-badge');
  expect(badge?.textContent).toBe(statusLabel(status));
  expect(badge?.dataset.status).toBe(statusClass(status));
}

const nonPlayable = async (s: any) => {
  const game: HeldGame = s.context.game;
  await waitFor(() => expectStatusBadge(game.status));
  expectTitle(game);
  expectNote(GAME_ACTION_TEXTS.noActions(game.status));
  expectNoActionButtons();
};

/** What went over the socket so far: a join on connect, and exactly the Leader's rolls and reverts. */
function expectSent(w: World) {
  expect(w.socket().sentOf('join_game')).toEqual(Array(w.joins).fill({ game_id: 5, compact: true }));
  expect(w.socket().sentOf('roll_dice')).toEqual(Array(w.rolls).fill({ game_id: 5, team_id: 11, performer_ign_id: 501 }));
  expect(w.socket().sentOf('revert_roll')).toEqual(Array(w.reverts).fill({ game_id: 5, team_id: 11, performer_ign_id: 501 }));
  expect(w.socket().sentOf('request_relief')).toEqual(Array(w.reliefs).fill({ game_id: 5, team_id: 11 }));
}

/** What the screen shows in each state node of the play region (and loading / failed). */
const ASSERTIONS: Record<string, (s: any, w: World) => Promise<void>> = {
  loading: async (_s, w) => {
    expectSent(w);
    await screen.findByText('Loading game details...');
    expect(screen.queryByRole('region', { name: /Roll Dice/ })).toBeNull();
  },
  failed: async (s, w) => {
    expectSent(w);
    expect((await screen.findByTestId('game-load-error')).textContent).toBe(s.context.loadError);
    expect(screen.queryByText('Team Positions')).toBeNull();
  },
  live: async (_s, w) => expectSent(w),
  // The panel is named for the viewer's role in every play state (also behind a modal).
  'live.play': async (s) => {
    const title = { leader: GAME_ACTION_TEXTS.leaderTitle, member: GAME_ACTION_TEXTS.memberTitle, none: GAME_ACTION_TEXTS.noTeamTitle }[viewerRoleOf(s.context.game)];
    await waitFor(() => expect(screen.getByRole('region', { name: title, hidden: true })).toBe(panel()));
  },
  'live.play.pending': nonPlayable,
  'live.play.ready': nonPlayable,
  'live.play.paused': nonPlayable,
  'live.play.inProgress': async () => waitFor(() => expectStatusBadge('in-progress')),
  'live.play.inProgress.idle': async (s) => {
    const game: HeldGame = s.context.game;
    await waitFor(() => expectStatusBadge('in-progress'));
    expectTitle(game);
    const role = viewerRoleOf(game);
    if (role === 'member') {
      expectNote(GAME_ACTION_TEXTS.memberOnly);
      expectNoActionButtons();
    } else if (role === 'none') {
      expectNote(GAME_ACTION_TEXTS.noTeam);
      expectNoActionButtons();
    } else {
      expectNote(null);
      // While the roll moment plays, neither a roll nor a revert is offered.
      const playing = momentPlaying(s);
      await waitFor(() => expect((within(panel()).getByRole('button', { name: 'Roll Dice' }) as HTMLButtonElement).disabled).toBe(playing));
      const revert = within(panel()).getByRole('button', { name: 'Revert Last Turn' }) as HTMLButtonElement;
      expect(revert.disabled).toBe(playing || !leaderCanRevert(game));
      const team = game.team_states.find((t) => t.team_id === 11) as unknown as { revert_count: number; task_override?: { description: string } | null };
      expect(within(panel()).getByText(/Reverts left:/).textContent).toBe(`Reverts left: ${game.max_reverts_allowed - team.revert_count}`);
      // Relief is on and the task open for hours: 'Ask for a new task' is offered (not while the moment plays).
      const relief = within(panel()).getByTestId('relief-button') as HTMLButtonElement;
      expect(relief.textContent).toBe(RELIEF_VIEW_TEXTS.button);
      expect(relief.disabled).toBe(playing);
      // What is left of the team's new tasks (updates without a count keep the one held).
      expect(within(panel()).getByTestId('reliefs-left').textContent).toBe(RELIEF_CONFIRM_TEXTS.left(2, 2));
      // The substitute stands in for the square's task on the team's task card.
      if (team.task_override) {
        await waitFor(() => expect(screen.getByTestId('team-task-text').textContent).toBe(team.task_override!.description));
        expect(screen.getByTestId('task-substitute').textContent).toBe(RELIEF_VIEW_TEXTS.substitute);
      } else {
        await screen.findByTestId('team-task');
        expect(screen.queryByTestId('task-substitute')).toBeNull();
      }
    }
  },
  'live.play.inProgress.rolling': async () => {
    const roll = within(panel()).getByRole('button', { name: 'Rolling...' }) as HTMLButtonElement;
    expect(roll.disabled).toBe(true);
    expect((within(panel()).getByRole('button', { name: 'Revert Last Turn' }) as HTMLButtonElement).disabled).toBe(true);
  },
  'live.play.inProgress.askingRelief': async () => {
    const relief = within(panel()).getByTestId('relief-button') as HTMLButtonElement;
    expect(relief.textContent).toBe(RELIEF_VIEW_TEXTS.asking);
    expect(relief.disabled).toBe(true);
    expect((within(panel()).getByRole('button', { name: 'Roll Dice' }) as HTMLButtonElement).disabled).toBe(true);
  },
  'live.play.inProgress.reverting': async () => {
    // The confirm modal waits for the outcome.
    expect(within(await findRevertDialog()).getByRole('status').textContent).toBe(REVERT_TEXTS.processing);
    expect((within(panel()).getByRole('button', { name: 'Roll Dice', hidden: true }) as HTMLButtonElement).disabled).toBe(true);
  },
  'live.play.finished': async (s) => {
    await waitFor(() => expectStatusBadge(s.context.game.status));
    expectNoActionButtons();
  },
  'live.play.finished.celebrating': async (s, w) => {
    await waitFor(() => expectStatusBadge(s.context.game.status));
    expect(within(panel()).getByTestId('winner-banner').textContent).toBe('Winner: Red Dragons');
    // The winner is named once on the screen (the banner with the podium, in the panel).
    expect(screen.getAllByTestId('winner-banner')).toHaveLength(1);
    expect(within(panel()).getByTestId('podium')).toBeTruthy();
    expect(screen.getByTestId('confetti')).toBeTruthy();
    expect(w.confetti.launched).toBe(1);
    expectNoActionButtons();
  },
  'live.play.finished.settled': async (s, w) => {
    const game: HeldGame = s.context.game;
    await waitFor(() => expectStatusBadge(game.status));
    expect(screen.queryByTestId('confetti')).toBeNull();
    expectNoActionButtons();
    if (game.winners?.length) {
      expect(within(panel()).getByTestId('winner-banner').textContent).toBe('Winner: Red Dragons');
      expect(screen.getAllByTestId('winner-banner')).toHaveLength(1);
      expect(w.confetti.stopped).toBe(1);
    } else {
      expectNote(GAME_ACTION_TEXTS.noActions(game.status));
      expect(screen.queryByTestId('winner-banner')).toBeNull();
    }
  },
};

/**
 * What the screen shows in each state node of the moment region: while a roll moment plays, the
 * game from before the roll (team 11 still on its square); once the pawn arrived, the game shown
 * is the newest one.
 */
const MOMENT_ASSERTIONS: Record<string, (s: any) => Promise<void>> = {
  'live.moment': async () => void (await screen.findByText('Team Positions')),
  // The pawns stand where the game shown has them, Team Positions names its teams, and the Live Game Log shows its entries, newest first.
  'live.moment.still': async (s) => {
    await waitFor(() => expect(shownSquare()).toBe(String(s.context.game.team_states[0].current_position)));
    expect(s.context.arriving).toBeNull();
    expect(screen.getAllByTestId('team-position').map((li) => li.getAttribute('data-team')).sort()).toEqual(s.context.game.team_states.map((t: { team_name: string }) => t.team_name).sort());
    await waitFor(() => expect([...screen.getByTestId('game-log').querySelectorAll('.game-log__message')].map((m) => m.textContent)).toEqual(s.context.log.map((e: LogEntry) => e.message)));
  },
  'live.moment.playing': async (s) => {
    expect(s.context.arriving.team_states[0].current_position).toBe(MOVE.to);
    expect(shownSquare()).toBe(String(s.context.game.team_states[0].current_position));
    expect(screen.queryByTestId('winner-banner')).toBeNull();
  },
};

/** The chart as the model: no socket needed to traverse it. */
const modelMachine = gamePlayMachine.provide({ actors: { liveGame: liveGameMachine.provide({ actors: { socket: fromCallback(() => {}) } }) } });

/** A short step name: the viewer's role when loaded, the status or change an update carries. */
function label(e: any): string {
  if (e.type === 'xstate.done.actor.loadGame') return `loaded(${viewerRoleOf(e.output)})`;
  if (e.type === 'xstate.error.actor.loadGame') return `load failed (${e.error.message})`;
  if (e.type === 'game.ordered') {
    const u = e.steps[0].update;
    return `${'user_teams' in u ? 'full game' : 'update'} ${u.status}${u.winners ? ' with winner' : ''}${u.last_move ? ` (team ${u.last_move.team_id} rolled)` : ''}`;
  }
  if (e.type.startsWith('xstate.after.')) return `after ${e.type.split('.')[2]}`;
  return e.type;
}

/** Renders the play screen with a fake load and a fake socket that connects at once. */
async function renderScreen(): Promise<World> {
  const fx = new FakeEffects();
  let socket: FakeSocket | null = null;
  const confetti = { launched: 0, stopped: 0 };
  const effects: GameScreenEffects = {
    loadGame: fx.fn('loadGame'),
    openSocket: () => (socket = new FakeSocket()),
    launchConfetti: () => {
      confetti.launched += 1;
      return () => (confetti.stopped += 1);
    },
  };
  renderRoutes([{ path: '/games/clan/:clanId/events/:eventId/game/:gameId', element: <GamePlayPage effects={effects} /> }], '/games/clan/2/events/3/game/5', signedInSessionLogic());
  await waitFor(() => expect(socket).not.toBeNull());
  act(() => socket!.serverConnects());
  return { joins: 1, rolls: 0, reverts: 0, reliefs: 0, fx, socket: () => socket!, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }), confetti };
}

modelTests<Snap, ModelEvent, World>({
  name: 'gamePlay (Game Action panel)',
  machine: modelMachine,
  inputs: [{ gameId: 5 }],
  passingThrough: ['live.play.resolving'],
  uncovered: {
    'failed -> game.reload': 'The play screen shows a load failure as its message only (docs/client.md §11 names no retry there), so no control sends game.reload.',
  },
  // Many states: a path that is the prefix of a longer one asserts nothing the longer one does not.
  dropPrefixPaths: true,
  events: eventsFor,
  // The games held by their versions (so an event is always made from the game it is sent to); the
  // state right after a refusal, a team change or the join answer that ended a load counts as its
  // own, so a path exercises it.
  serialize: (s, event, prev) => {
    const g: HeldGame | null = s.context.game;
    const team = g?.team_states.find((t) => t.team_id === 11) as { current_position: number; revert_count?: number } | undefined;
    const joinedFrom = event?.type === 'game.ordered' && prev && !prev.matches('live') ? JSON.stringify(prev.value) : '';
    return [
      JSON.stringify(s.value),
      viewerRoleOf(g),
      team?.current_position,
      team?.revert_count,
      g?.version,
      s.context.arriving?.version,
      s.context.log[0]?.id,
      s.context.loadError,
      g?.winners?.length ?? 0,
      event?.type === 'action.failed',
      event?.type === 'action.failed' && prev?.matches({ live: { play: { inProgress: 'reverting' } } }),
      event?.type === 'action.failed' && prev?.matches({ live: { play: { inProgress: 'askingRelief' } } }),
      !!(team as { task_override?: unknown } | undefined)?.task_override,
      event?.type === 'game.teamUpdated',
      joinedFrom,
    ].join('|');
  },
  label,
  executors: EXECUTORS,
  assertions: { ...ASSERTIONS, ...MOMENT_ASSERTIONS },
  render: renderScreen,
  fakeTimers: true,
  guards: (paths) => {
    const steps = paths.flatMap((p) => p.steps.map((st) => st.state));
    expect(afterEvent('gamePlay.live.play.finished.celebrating')).toBe(CONFETTI_END);
    // A refused roll and a refused revert are both driven (their messages show in different places).
    const refusedIn = new Set(
      paths.flatMap((p) =>
        p.steps.flatMap((st, i) => {
          if (st.event.type !== 'action.failed') return [];
          const before = p.steps[i - 1].state;
          return [before.matches({ live: { play: { inProgress: 'reverting' } } }) ? 'reverting' : before.matches({ live: { play: { inProgress: 'askingRelief' } } }) ? 'askingRelief' : 'rolling'];
        }),
      ),
    );
    expect([...refusedIn].sort()).toEqual(['askingRelief', 'reverting', 'rolling']);
    // A substitute is granted and shown on some path.
    expect(steps.some((s) => s.context.game?.team_states[0].task_override)).toBe(true);
    // Every role meets every status; both load failure texts are shown.
    const seen = new Set(steps.filter((s) => s.context.game).map((s) => `${viewerRoleOf(s.context.game)}:${s.context.game.status}`));
    for (const role of ['leader', 'member', 'none']) for (const status of [...STATUSES, 'finished', 'completed']) expect(seen.has(`${role}:${status}`), `${role}:${status}`).toBe(true);
    const errors = new Set(steps.map((s) => s.context.loadError));
    expect(errors.has(GAME_VIEW_MESSAGES.notFound) && errors.has(GAME_VIEW_MESSAGES.loadFailed)).toBe(true);
    // A Leader whose reverts are used up is reached (revert refused by the rule).
    expect(steps.some((s) => viewerRoleOf(s.context.game) === 'leader' && s.context.game.team_states[0].current_position > 1 && !leaderCanRevert(s.context.game))).toBe(true);
  },
});

/** The texts asserted above are the documented, word for word (docs/client.md §1, §11; docs/game-rules.md §6, §11). */
describe('spec texts', () => {
  it('are exact', () => {
    expect(GAME_ACTION_TEXTS.leaderTitle).toBe('Roll Dice for Your Team');
    expect(GAME_ACTION_TEXTS.memberTitle).toBe('Leader Action Required');
    expect(GAME_ACTION_TEXTS.noTeamTitle).toBe('Join a Team to Roll');
    expect(GAME_ACTION_TEXTS.memberOnly).toBe('Only the Leader of your team can roll the dice or revert a turn.');
    expect(GAME_ACTION_TEXTS.noTeam).toBe('You must be a member of a team participating in this game to see game actions.');
    expect(GAME_ACTION_TEXTS.noActions('paused')).toBe('Game is paused. No actions available.');
    expect(GAME_VIEW_MESSAGES.loadFailed).toBe('Failed to load game details. It may not exist or the link is invalid.');
    expect(GAME_VIEW_MESSAGES.notFound).toBe('Game not found.');
    expect(GAME_VIEW_MESSAGES.publicLoadFailed).toBe('Failed to load game details. It may not exist or is no longer public.');
  });
});

/** Sanity: the progress helper gives what the server would. */
describe('fixtures', () => {
  it('progressOf moves team 11 and bumps the version', () => {
    const p: GameProgress = progressOf(fixtureGame(), { position: 7 });
    expect(p.version).toBe(2);
    expect(p.team_states[0].position_history).toEqual([1, 7]);
  });
});
