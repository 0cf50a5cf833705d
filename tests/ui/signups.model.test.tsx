// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { ClanEvent } from '../../contract/event';
import type { BalanceAnswer, ListedSignup, WomProgress } from '../../contract/signupApi';
import { SIGNUPS_TEXTS, WOM_POLL_MS, signupsMachine, type SignupsEvent } from '../../machines/signups.machine';
import { SignupsView, type SignupsEffects } from '../../src/features/signups/SignupsView';
import { SIGNUP_TEXTS } from '../../src/features/signups/signupTexts';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the signups chart (docs/client.md §13; docs/server.md §16) through the
 * rendered Sign-ups view of a manager: the list's load, failure and Retry; a reload after a score
 * saved through its dialog; 'Balance Teams' asking for a proposal that shows each team's total and
 * the spread before anything changes, then Apply (the list loads again with the success text) or
 * Cancel, and a refused proposal or apply with the server's error; 'Check Progress' reading the
 * Wise Old Man progress, read again every 5 s of fake time while the fetch is unfinished. Every state is asserted on the screen. Beside it: a member's view (Sign
 * Up with IGN, 'I would lead a team' and a note; Withdraw of their own sign-up) and a closed event.
 */

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const EVENT: ClanEvent = {
  id: 3, name: 'Winter League', type: 'Snakes and Ladders', start_datetime: '2099-01-10T18:00:00.000Z', end_datetime: null,
  game_id: null, team_count: 0, signups_open: true, signups_close_at: null,
};
const row = (id: number, ign: string, over: Partial<ListedSignup> = {}): ListedSignup => ({
  id, event_id: 3, user_id: 100 + id, username: `user${id}`, discord_id: null, osrs_ign_id: 200 + id, ign, wants_leader: false, note: '',
  score: null, score_source: null, team_id: null, team_name: null, created_at: `2026-01-0${id}T10:00:00.000Z`, ...over,
});
const SIGNUPS: ListedSignup[] = [
  row(1, 'Zezima', { wants_leader: true, note: 'Raids <b>only</b>', score: 300, score_source: 'wom' }),
  row(2, 'Woox', { score: 250, score_source: 'csv' }),
  row(3, 'Lynx Titan', { team_id: 9, team_name: 'Red Dragons' }),
];
const PROPOSAL: BalanceAnswer['proposal'] = {
  teams: [
    { team_id: null, name: 'Team 1', leader_signup_id: 1, signup_ids: [1], total_score: 300 },
    { team_id: null, name: 'Team 2', leader_signup_id: null, signup_ids: [2], total_score: 250 },
  ],
  spread: 50,
};
const WOM: WomProgress = { total: 3, done: 2, errors: [{ ign: 'Lynx Titan', error: 'Wise Old Man does not know this player.' }] };
/** The same fetch finished. */
const WOM_DONE: WomProgress = { ...WOM, done: 3 };
const LOAD_ERROR = 'Network error fetching sign-ups.';
const STALE = 'The sign-ups changed since this proposal was made. Balance again.';

function effectsOf(fx: FakeEffects): SignupsEffects {
  return {
    fetchSignups: fx.fn('load'),
    signUp: fx.fn('signUp'),
    withdrawSignup: fx.fn('withdraw'),
    saveScore: fx.fn('score'),
    uploadScores: fx.fn('upload'),
    startWomFetch: fx.fn('wom'),
    fetchWomProgress: fx.fn('progress'),
    proposeTeams: fx.fn('propose'),
    applyProposal: fx.fn('apply'),
    updateEvent: fx.fn('event'),
  };
}

function renderView(opts: { manager?: boolean; event?: ClanEvent; viewerId?: number; fakeTime?: boolean } = {}): World {
  const fx = new FakeEffects();
  render(
    <SignupsView
      clanId={7}
      event={opts.event ?? EVENT}
      isManager={opts.manager ?? true}
      viewer={{ id: opts.viewerId ?? 50, igns: [{ id: 250, ign: 'Me Myself' }] }}
      onBack={() => {}}
      onEventChanged={() => {}}
      effects={effectsOf(fx)}
    />,
  );
  return { fx, user: userEvent.setup(opts.fakeTime ? { advanceTimers: vi.advanceTimersByTime } : {}) };
}

type Snap = SnapshotFrom<typeof signupsMachine>;
type ModelEvent =
  | SignupsEvent
  | { type: 'xstate.done.actor.loadSignups'; output: ListedSignup[] }
  | { type: 'xstate.error.actor.loadSignups'; error: Error }
  | { type: 'xstate.done.actor.proposeTeams'; output: BalanceAnswer['proposal'] }
  | { type: 'xstate.error.actor.proposeTeams'; error: Error }
  | { type: 'xstate.done.actor.applyProposal'; output: { created_team_ids: number[]; placed_count: number } }
  | { type: 'xstate.error.actor.applyProposal'; error: Error }
  | { type: 'xstate.done.actor.loadWomProgress'; output: WomProgress }
  | { type: 'xstate.error.actor.loadWomProgress'; error: Error }
  | { type: 'xstate.after.womPoll.signups.loaded' };

const hasFree = (s: Snap) => s.context.items.some((x) => x.team_id === null);

function eventsFor(s: Snap): ModelEvent[] {
  switch (s.value as string) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadSignups', output: SIGNUPS },
        ...(s.context.items.length === 0 ? [{ type: 'xstate.done.actor.loadSignups', output: [] } as ModelEvent] : []),
        { type: 'xstate.error.actor.loadSignups', error: new Error(LOAD_ERROR) },
      ];
    case 'failed':
      return [{ type: 'signups.reload' }];
    case 'loaded':
      return [
        ...(s.context.items.length > 0 ? [{ type: 'signups.reload' } as ModelEvent] : []),
        ...(hasFree(s) ? [{ type: 'balance.request', teamCount: 2 } as ModelEvent] : []),
        { type: 'wom.check' },
        ...(s.context.wom && s.context.wom.done < s.context.wom.total ? [{ type: 'xstate.after.womPoll.signups.loaded' } as ModelEvent] : []),
      ];
    case 'proposing':
      return [
        { type: 'xstate.done.actor.proposeTeams', output: PROPOSAL },
        { type: 'xstate.error.actor.proposeTeams', error: new Error('There are no free agents to place on teams.') },
      ];
    case 'proposed':
      // Asking again with another count from the proposal; Team 2 has no Leader until Woox (sign-up 2) is chosen.
      return [
        ...(s.context.proposal!.teams[1].leader_signup_id === null ? [{ type: 'balance.leader', team: 1, signupId: 2 } as ModelEvent] : []),
        { type: 'balance.apply' },
        { type: 'balance.cancel' },
        ...(s.context.teamCount === 2 ? [{ type: 'balance.request', teamCount: 3 } as ModelEvent] : []),
      ];
    case 'applying':
      return [
        { type: 'xstate.done.actor.applyProposal', output: { created_team_ids: [11, 12], placed_count: 2 } },
        { type: 'xstate.error.actor.applyProposal', error: new Error(STALE) },
      ];
    case 'checkingWom':
      return [
        { type: 'xstate.done.actor.loadWomProgress', output: s.context.wom === null ? WOM : WOM_DONE },
        { type: 'xstate.error.actor.loadWomProgress', error: new Error('Failed to read the Wise Old Man progress.') },
      ];
    default:
      return [];
  }
}

const settle = (w: World, name: string, e: { type: string; output?: unknown; error?: unknown }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, e.error)));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
type Executor = ModelExecutor<World, Snap, ModelEvent>;

/** `signups.reload` from the list: a score saved through the Set Score dialog reloads it. */
const saveScoreFlow: Executor = async (w, { prev }) => {
  if (prev.matches('failed')) return w.user.click(button('Retry'));
  const first = prev.context.items[0];
  await w.user.click(within(screen.getByRole('rowheader', { name: first.ign }).closest('tr')!).getByRole('button', { name: 'Set Score' }));
  const dialog = await screen.findByRole('dialog', { name: 'Set Score' });
  const input = within(dialog).getByLabelText(`Score of ${first.ign} (empty for none)`);
  await w.user.clear(input);
  await w.user.type(input, '321');
  await w.user.click(within(dialog).getByRole('button', { name: 'Save Score' }));
  expect(w.fx.calls('score').at(-1)).toEqual([7, 3, first.id, 321]);
  await act(() => w.fx.resolve('score', { ...first, score: 321, score_source: 'manual' }));
  // The modal closes; the fading banner says what was saved.
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Set Score' })).toBeNull());
  expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe(SIGNUP_TEXTS.scoreSaved(first.ign, 321));
};

const EXECUTORS = {
  'xstate.done.actor.loadSignups': (w, { event }) => settle(w, 'load', event),
  'xstate.error.actor.loadSignups': (w, { event }) => settle(w, 'load', event),
  'xstate.done.actor.proposeTeams': (w, { event }) => settle(w, 'propose', event),
  'xstate.error.actor.proposeTeams': (w, { event }) => settle(w, 'propose', event),
  'xstate.done.actor.applyProposal': (w, { event }) => settle(w, 'apply', event),
  'xstate.error.actor.applyProposal': (w, { event }) => settle(w, 'apply', event),
  'xstate.done.actor.loadWomProgress': (w, { event }) => settle(w, 'progress', event),
  'xstate.error.actor.loadWomProgress': (w, { event }) => settle(w, 'progress', event),
  'signups.reload': saveScoreFlow,
  'balance.request': async (w, { event }) => {
    const input = screen.getByLabelText('Teams (0 fills the existing teams)');
    await w.user.clear(input);
    await w.user.type(input, String((event as { teamCount: number }).teamCount));
    await w.user.click(button('Balance Teams'));
  },
  'balance.leader': async (w, { event }) => {
    const e = event as { team: number; signupId: number | null };
    const name = PROPOSAL.teams[e.team].name;
    await w.user.selectOptions(screen.getByLabelText(SIGNUP_TEXTS.leaderLabel(name)), String(e.signupId ?? ''));
  },
  'balance.apply': (w) => w.user.click(button('Apply')),
  'balance.cancel': (w) => w.user.click(button('Cancel')),
  'wom.check': (w) => w.user.click(button('Check Progress')),
  'xstate.after.womPoll.signups.loaded': async () => act(async () => void vi.advanceTimersByTime(WOM_POLL_MS)),
} satisfies Record<ModelEvent['type'], Executor>;

/** The list as the context says: one row per sign-up (the note as text), or the empty text. */
function listShows(s: Snap): void {
  const { items } = s.context;
  if (items.length === 0) {
    expect(screen.getByText(SIGNUP_TEXTS.none)).toBeTruthy();
    // Nobody signed up is not 'everyone is on a team'.
    expect(screen.getByTestId('free-agents').textContent).toBe(SIGNUP_TEXTS.noSignupsYet);
    return;
  }
  const table = screen.getByRole('table', { name: 'Sign-ups' });
  expect(within(table).getAllByRole('rowheader').map((r) => r.textContent)).toEqual(items.map((x) => x.ign));
  const zezima = within(table).getByRole('rowheader', { name: 'Zezima' }).closest('tr')!;
  expect(within(zezima).getByText('Raids <b>only</b>')).toBeTruthy();
  expect(zezima.querySelector('b')).toBeNull();
  expect(within(zezima).getByText('300 (Wise Old Man)')).toBeTruthy();
  for (const x of items) {
    const cell = within(within(table).getByRole('rowheader', { name: x.ign }).closest('tr')!).getAllByRole('cell')[4];
    expect(cell.textContent).toBe(x.team_name ?? 'Free agent');
  }
  const free = items.filter((x) => x.team_id === null).map((x) => x.ign);
  expect(screen.getByTestId('free-agents').textContent).toBe(free.length === 0 ? SIGNUP_TEXTS.noFreeAgents : free.join(', '));
}

/** The chart's message and the Wise Old Man progress as the context says. */
function messageShows(s: Snap): void {
  const { message, wom } = s.context;
  if (message) {
    expect(screen.getByTestId('signups-message').textContent).toBe(message.text);
    expect(screen.getByTestId('signups-message').className).toContain(`notice--${message.tone}`);
  } else expect(screen.queryByTestId('signups-message')).toBeNull();
  if (wom && wom.total > 0) expect(screen.getByTestId('wom-progress').textContent).toContain(SIGNUP_TEXTS.womProgress(wom));
  else expect(screen.queryByTestId('wom-progress')).toBeNull();
}

/** The proposal as the context says: each team's members and total, the spread, Apply and Cancel. */
function proposalShows(s: Snap, applying: boolean): void {
  const p = s.context.proposal!;
  const table = screen.getByRole('table', { name: 'Proposed teams' });
  const rows = within(table).getAllByRole('rowheader');
  expect(rows.map((r) => r.textContent)).toEqual(p.teams.map((t) => `${t.name} (new)`));
  expect(within(rows[0].closest('tr')!).getByText(String(p.teams[0].total_score))).toBeTruthy();
  expect(screen.getByText(`Spread: ${p.spread}`)).toBeTruthy();
  // Each team's Leader as chosen, and a warning for each team without one.
  for (const t of p.teams) expect((screen.getByLabelText(SIGNUP_TEXTS.leaderLabel(t.name)) as HTMLSelectElement).value).toBe(t.leader_signup_id === null ? '' : String(t.leader_signup_id));
  const leaderless = p.teams.filter((t) => t.leader_signup_id === null).map((t) => SIGNUP_TEXTS.noLeader(t.name));
  if (leaderless.length === 0) expect(screen.queryByTestId('leader-warnings')).toBeNull();
  else expect([...screen.getByTestId('leader-warnings').querySelectorAll('p')].map((x) => x.textContent)).toEqual(leaderless);
  expect(button(applying ? 'Applying...' : 'Apply').disabled).toBe(applying);
  expect(button('Cancel').disabled).toBe(applying);
}

const phase = () => screen.getByTestId('signups-view').dataset.phase;

modelTests<Snap, ModelEvent, World>({
  name: 'signups',
  machine: signupsMachine,
  events: eventsFor,
  // A proposal dropped by Cancel is told apart, so Cancel gets a path of its own.
  serialize: (s, e) => JSON.stringify([s.value, e?.type === 'balance.cancel', s.context.teamCount, s.context.items.length, s.context.proposal?.teams.map((t) => t.leader_signup_id) ?? null, s.context.message?.text ?? null, s.context.wom?.done ?? null, s.context.error]),
  dropPrefixPaths: true,
  fakeTimers: true,
  executors: EXECUTORS,
  render: () => renderView({ fakeTime: true }),
  assertions: {
    loading: (s) => {
      expect(phase()).toBe('loading');
      if (s.context.items.length === 0) expect(screen.getByText('Loading sign-ups...')).toBeTruthy();
      else {
        listShows(s);
        messageShows(s);
      }
    },
    failed: (s) => {
      expect(phase()).toBe('failed');
      // Beside the message of an earlier action, if any.
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(s.context.error);
      expect(button('Retry')).toBeTruthy();
      expect(screen.queryByRole('table', { name: 'Sign-ups' })).toBeNull();
    },
    loaded: (s) => {
      expect(phase()).toBe('loaded');
      listShows(s);
      messageShows(s);
      expect(screen.queryByTestId('proposal')).toBeNull();
      expect(button('Balance Teams').disabled).toBe(!hasFree(s));
      expect(button('Check Progress').disabled).toBe(false);
    },
    proposing: (s, w) => {
      expect(phase()).toBe('proposing');
      expect(screen.getByText('Balancing teams...')).toBeTruthy();
      expect(button('Balance Teams').disabled).toBe(true);
      expect(w.fx.calls('propose').at(-1)).toEqual([7, 3, s.context.teamCount]);
    },
    proposed: (s) => {
      expect(phase()).toBe('proposed');
      proposalShows(s, false);
      messageShows(s);
      // Nothing is applied until Apply.
    },
    applying: (s, w) => {
      expect(phase()).toBe('applying');
      proposalShows(s, true);
      expect(w.fx.calls('apply').at(-1)).toEqual([7, 3, s.context.proposal]);
    },
    checkingWom: (s) => {
      expect(phase()).toBe('checkingWom');
      listShows(s);
      expect(button('Check Progress').disabled).toBe(true);
    },
  },
  guards: (paths) => {
    const texts = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.message?.text)));
    expect(texts.has(SIGNUPS_TEXTS.applied({ created_team_ids: [11, 12], placed_count: 2 }))).toBe(true);
    expect(SIGNUPS_TEXTS.applied({ created_team_ids: [11, 12], placed_count: 2 })).toBe('Teams applied: 2 sign-ups placed, 2 new teams.');
    expect(texts.has(STALE)).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.state.context.wom?.done === WOM_DONE.total))).toBe(true);
    // A proposal applied with the Leader the manager chose for the team that had none.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('applying') && st.state.context.proposal?.teams[1].leader_signup_id === 2))).toBe(true);
  },
});

describe('the Sign-ups view beside its chart', () => {
  afterEach(cleanup);

  it('lets a member sign up with their IGN, would-lead and a note, then withdraw their own sign-up', async () => {
    const w = renderView({ manager: false, viewerId: 101 });
    await act(() => w.fx.resolve('load', SIGNUPS.slice(1)));
    expect(screen.getByTestId('signups-status').textContent).toBe('Sign-ups are open.');
    expect(screen.queryByRole('button', { name: 'Balance Teams' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Set Score' })).toBeNull();
    await w.user.click(button('Sign Up'));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Up' });
    await w.user.click(within(dialog).getByLabelText('I would lead a team'));
    await w.user.type(within(dialog).getByLabelText('Note'), 'Free weekends');
    await w.user.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(w.fx.calls('signUp').at(-1)).toEqual([7, 3, { osrs_ign_id: 250, wants_leader: true, note: 'Free weekends' }]);
    await act(() => w.fx.resolve('signUp', row(1, 'Me Myself', { user_id: 101 })));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign Up' })).toBeNull());
    expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe(SIGNUP_TEXTS.signedUp('Me Myself'));
    await act(() => w.fx.resolve('load', [row(1, 'Me Myself', { user_id: 101 }), ...SIGNUPS.slice(1)]));
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
    // Only their own row offers Withdraw.
    expect(screen.getAllByRole('button', { name: 'Withdraw' })).toHaveLength(1);
    await w.user.click(button('Withdraw'));
    const confirm = await screen.findByRole('dialog', { name: 'Withdraw Sign-up' });
    await w.user.click(within(confirm).getByRole('button', { name: 'Withdraw' }));
    expect(w.fx.calls('withdraw').at(-1)).toEqual([7, 3, 1]);
  });

  it('shows no Wise Old Man progress before a fetch was started (the server answers 0 of 0)', async () => {
    const w = renderView();
    await act(() => w.fx.resolve('load', SIGNUPS));
    await w.user.click(button('Check Progress'));
    await act(() => w.fx.resolve('progress', { total: 0, done: 0, errors: [] }));
    await act(() => w.fx.resolve('load', SIGNUPS));
    expect(screen.queryByTestId('wom-progress')).toBeNull();
    expect(screen.queryByText(/looked up/)).toBeNull();
  });

  it('says everyone is on a team only when every sign-up is placed', async () => {
    const w = renderView();
    await act(() => w.fx.resolve('load', [SIGNUPS[2]]));
    expect(screen.getByTestId('free-agents').textContent).toBe(SIGNUP_TEXTS.noFreeAgents);
  });

  it('shows a closed event without Sign Up, and a manager the button that opens sign-ups', async () => {
    const w = renderView({ event: { ...EVENT, signups_open: false } });
    await act(() => w.fx.resolve('load', []));
    expect(screen.getByTestId('signups-status').textContent).toBe('Sign-ups are closed.');
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
    await w.user.click(button('Open Sign-ups'));
    const dialog = await screen.findByRole('dialog', { name: 'Open Sign-ups' });
    await w.user.type(within(dialog).getByLabelText('Close sign-ups at (UTC, optional)'), '2099-01-09T18:00');
    await w.user.click(within(dialog).getByRole('button', { name: 'Open Sign-ups' }));
    expect(w.fx.calls('event').at(-1)).toEqual([
      7, 3, { name: EVENT.name, type: EVENT.type, start_datetime: EVENT.start_datetime, end_datetime: null, signups_open: true, signups_close_at: '2099-01-09T18:00:00.000Z' },
    ]);
    // Done: the modal closes and the fading banner says sign-ups are open.
    await act(() => w.fx.resolve('event', { message: 'ok', event: { ...EVENT, signups_open: true } }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe(SIGNUP_TEXTS.opened);
  });

  it("shows a member sign-ups closed, without Sign Up, once the event's game is in progress or finished though the flag is open", async () => {
    const open = { ...EVENT, signups_close_at: '2099-01-09T18:00:00.000Z', game_id: 4 };
    const cases: ClanEvent[] = [
      { ...open, game_status: 'in-progress' },
      { ...open, game_status: 'paused' },
      { ...open, game_status: 'finished', game_finished: true },
      // An answer without game_status still closes on a finished game.
      { ...open, game_finished: true },
    ];
    for (const event of cases) {
      const w = renderView({ manager: false, viewerId: 101, event });
      await act(() => w.fx.resolve('load', SIGNUPS.slice(1)));
      expect(screen.getByTestId('signups-status').textContent, JSON.stringify(event)).toBe('Sign-ups are closed.');
      expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
      cleanup();
    }
    // Before play (READY) the same event is open until its close time.
    const w = renderView({ manager: false, viewerId: 101, event: { ...open, game_status: 'READY' } });
    await act(() => w.fx.resolve('load', SIGNUPS.slice(1)));
    expect(screen.getByTestId('signups-status').textContent).toMatch(/^Sign-ups are open until /);
    screen.getByRole('button', { name: 'Sign Up' });
  });
});
