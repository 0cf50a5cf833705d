// @vitest-environment jsdom
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { fromCallback, type SnapshotFrom } from 'xstate';
import type { DraftRoomAnswer } from '../../contract/draft';
import type { DraftState, Signup } from '../../contract/signup';
import { DRAFT_ROOM_TEXTS, draftRoomMachine, type DraftControl, type DraftFeedCommand, type DraftRoomEvent } from '../../machines/draftRoom.machine';
import { DraftRoom, type DraftEffects } from '../../src/features/draft/DraftRoom';
import { DRAFT_TEXTS, freeAgents } from '../../src/features/draft/draftTexts';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based tests of the captains' draft room (docs/client.md §14; docs/server.md §16) through
 * the rendered room: the load (and its failure and Retry), a manager's start form, Pause /
 * Resume / Undo Last Pick / End Draft answered or refused by the fake server, and the captain's
 * pick over a fake socket feed, ended by the next draft_state or a refusal. Every state is
 * asserted on the screen: whose turn, each team's picks, the pool, the buttons and the fading
 * message (the banner chart's; each action's start removes the last one). After a draft is over,
 * its placed sign-ups are never offered as captains.
 */

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The fake socket feed: what the chart asked it to send, and how to report facts to the chart. */
  feed: { commands: DraftFeedCommand[]; send: ((e: DraftRoomEvent) => void) | null };
  /** The message the banner should show now (what the last outcome said, null after an action's start). */
  expected: Outcome;
}
type Outcome = { tone: 'success' | 'error'; text: string } | null;

const ME = 10;
const signup = (id: number, user: number, ign: string, score: number | null, team: number | null = null): Signup => ({
  id, event_id: 3, user_id: user, username: `user${user}`, discord_id: null, osrs_ign_id: id + 50, ign, wants_leader: false, note: '', score, score_source: score === null ? null : 'manual', team_id: team, created_at: '2031-05-01T10:00:00.000Z',
});
const SIGNUPS: Signup[] = [signup(1, ME, 'CapOne', 100), signup(2, 20, 'CapTwo', 90), signup(3, 30, 'Zezima', 10), signup(4, 40, 'Woox', 40), signup(5, 50, '<b>Bold</b>', null)];
/** A sign-up made after the room was loaded: shown by its id until the names are read again. */
const UNKNOWN = 9;
const T1 = 100;
const T2 = 200;
const FAR = '2099-01-01T00:00:00.000Z';
const base: DraftState = {
  event_id: 3, status: 'running', round: 1, order: [T1, T2], captains: [{ team_id: T1, signup_id: 1 }, { team_id: T2, signup_id: 2 }],
  on_the_clock: T1, deadline: FAR, picks: [], pool: [4, 3, 5],
};
/** My turn, nothing picked. */
const RUN0 = base;
/** After my pick of Woox: team two on the clock. */
const RUN1: DraftState = { ...base, on_the_clock: T2, picks: [{ team_id: T1, signup_id: 4, at: '2031-05-01T10:01:00.000Z', auto: false }], pool: [3, 5] };
/** Team two's clock ran out: Zezima picked by the clock; team two picks again. */
const RUN2: DraftState = { ...RUN1, round: 2, picks: [...RUN1.picks, { team_id: T2, signup_id: 3, at: '2031-05-01T10:02:00.000Z', auto: true }], pool: [5, UNKNOWN] };
const LOAD_ERROR = 'Network error. Failed to connect to the server.';
const REFUSED = 'Permission denied. You are not authorized to manage this clan.';
const NOT_IN_POOL = 'That player is not in the pool.';

/** The draft after a manager's control. */
function controlled(draft: DraftState, action: DraftControl): DraftState {
  if (action === 'pause') return { ...draft, status: 'paused', on_the_clock: null, deadline: null };
  if (action === 'resume') return { ...draft, status: 'running', on_the_clock: T1, deadline: FAR };
  if (action === 'end') return { ...draft, status: 'done', on_the_clock: null, deadline: null, pool: [] };
  const picks = draft.picks.slice(0, -1);
  return { ...draft, picks, pool: [draft.picks.at(-1)!.signup_id, ...draft.pool] };
}

function renderRoom(): World {
  const fx = new FakeEffects();
  const feed: World['feed'] = { commands: [], send: null };
  const effects: DraftEffects = { fetchDraftRoom: fx.fn('load'), startDraft: fx.fn('start'), controlDraft: fx.fn('control') };
  const fakeFeed = fromCallback<DraftFeedCommand, void>(({ sendBack, receive }) => {
    feed.send = sendBack;
    receive((command) => feed.commands.push(command));
    return () => {
      feed.send = null;
    };
  });
  render(<DraftRoom clanId={7} eventId={3} viewer={{ userId: ME, isManager: true }} effects={effects} feed={fakeFeed} />);
  return { fx, feed, user: userEvent.setup(), expected: null };
}

type Snap = SnapshotFrom<typeof draftRoomMachine>;
type Event = DraftRoomEvent | ActorSteps<'loadRoom', DraftRoomAnswer> | ActorSteps<'startDraft', DraftState> | ActorSteps<'controlDraft', DraftState>;

/** The state of loaded that saves each control, and back. */
const CONTROL_STATES = { pause: 'pausing', resume: 'resuming', undo: 'undoing', end: 'ending' } as const;
const controlOf = (s: Snap): DraftControl | null => (Object.keys(CONTROL_STATES) as DraftControl[]).find((a) => s.matches({ loaded: CONTROL_STATES[a] })) ?? null;

function events(s: Snap): Event[] {
  const { draft } = s.context;
  if (s.matches('loading'))
    return [
      { type: 'xstate.done.actor.loadRoom', output: { event_name: 'Draft Night', draft_state: null, signups: SIGNUPS } },
      { type: 'xstate.done.actor.loadRoom', output: { event_name: 'Draft Night', draft_state: RUN0, signups: SIGNUPS } },
      { type: 'xstate.error.actor.loadRoom', error: new Error(LOAD_ERROR) },
    ];
  if (s.matches('failed')) return [{ type: 'draft.reload' }];
  if (s.matches({ loaded: 'starting' })) return [{ type: 'xstate.done.actor.startDraft', output: RUN0 }, { type: 'xstate.error.actor.startDraft', error: new Error(REFUSED) }];
  const action = controlOf(s);
  if (action) return [{ type: 'xstate.done.actor.controlDraft', output: controlled(draft!, action) }, { type: 'xstate.error.actor.controlDraft', error: new Error(REFUSED) }];
  if (s.matches({ loaded: 'picking' })) return [{ type: 'draft.updated', state: RUN1 }, { type: 'draft.refused', message: NOT_IN_POOL }];
  // loaded.idle
  if (draft === null || draft.status === 'done') return captainsFor(draft).length === 2 ? [{ type: 'draft.start', captainIds: captainsFor(draft), pickSeconds: 45 }] : [];
  const out: Event[] = [];
  if ([...draft.pool, ...draft.picks.map((p) => p.signup_id)].includes(UNKNOWN)) out.push({ type: 'draft.reload' });
  if (draft.status === 'paused') {
    out.push({ type: 'draft.control', action: 'resume' }, { type: 'draft.control', action: 'end' });
    if (draft.picks.length > 0) out.push({ type: 'draft.control', action: 'undo' });
    return out;
  }
  out.push({ type: 'draft.control', action: 'pause' });
  if (draft.on_the_clock === T1) out.push({ type: 'draft.pick', signupId: draft.pool[0] });
  else if (draft.picks.length < 2) out.push({ type: 'draft.updated', state: RUN2 }, { type: 'draft.refused', message: 'It is not your turn to pick.' });
  else out.push({ type: 'draft.control', action: 'end' });
  return out;
}

/** The captains a new draft takes: two of the sign-ups still free (none placed by `draft`). */
function captainsFor(draft: DraftState | null): number[] {
  return freeAgents(SIGNUPS, draft).slice(0, 2).map((s) => s.id);
}

/** What the banner says after `e` from `prev`: an outcome, null (an action started), or undefined (unchanged). */
function outcomeOf(e: Event, prev: Snap): Outcome | undefined {
  if (e.type === 'draft.start' || e.type === 'draft.control' || e.type === 'draft.pick') return null;
  if (e.type === 'xstate.done.actor.startDraft') return { tone: 'success', text: DRAFT_ROOM_TEXTS.started };
  if (e.type === 'xstate.done.actor.controlDraft') return { tone: 'success', text: DRAFT_ROOM_TEXTS[controlOf(prev)!] };
  if (e.type === 'xstate.error.actor.startDraft' || e.type === 'xstate.error.actor.controlDraft') return { tone: 'error', text: e.error.message };
  if (e.type === 'draft.refused') return { tone: 'error', text: e.message };
  return undefined;
}

const settle = (w: World, name: string, e: Event) => act(() => w.fx.settle(name, e));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const room = () => screen.getByTestId('draft-room');
const tell = async (w: World, e: DraftRoomEvent) => {
  await act(async () => w.feed.send!(e));
};

const executors = {
  'xstate.done.actor.loadRoom': (w, { event }) => settle(w, 'load', event),
  'xstate.error.actor.loadRoom': (w, { event }) => settle(w, 'load', event),
  'xstate.done.actor.startDraft': (w, { event }) => settle(w, 'start', event),
  'xstate.error.actor.startDraft': (w, { event }) => settle(w, 'start', event),
  'xstate.done.actor.controlDraft': (w, { event }) => settle(w, 'control', event),
  'xstate.error.actor.controlDraft': (w, { event }) => settle(w, 'control', event),
  'draft.reload': (w, { prev }) => w.user.click(button(prev.matches('failed') ? 'Retry' : DRAFT_TEXTS.refreshNames)),
  'draft.start': async (w, { event }) => {
    const { captainIds, pickSeconds } = event as { captainIds: number[]; pickSeconds: number };
    for (const id of captainIds) await w.user.click(screen.getByRole('checkbox', { name: new RegExp(`^${SIGNUPS.find((s) => s.id === id)!.ign}`) }));
    const seconds = screen.getByLabelText(DRAFT_TEXTS.secondsLabel);
    await w.user.clear(seconds);
    await w.user.type(seconds, String(pickSeconds));
    await w.user.click(button(DRAFT_TEXTS.start));
  },
  'draft.control': (w, { event }) => w.user.click(button(DRAFT_TEXTS.control[(event as { action: DraftControl }).action])),
  'draft.pick': (w, { event }) => w.user.click(button(DRAFT_TEXTS.pickLabel(SIGNUPS.find((s) => s.id === (event as { signupId: number }).signupId)!.ign))),
  'draft.updated': (w, { event }) => tell(w, event as DraftRoomEvent),
  'draft.refused': (w, { event }) => tell(w, event as DraftRoomEvent),
} satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>;

/** Each executor, then what the banner should say after its step. */
const tracked = Object.fromEntries(
  Object.entries(executors).map(([type, run]) => [
    type,
    (async (w, step) => {
      await (run as ModelExecutor<World, Snap, Event>)(w, step);
      const outcome = outcomeOf(step.event, step.prev);
      if (outcome !== undefined) w.expected = outcome;
    }) satisfies ModelExecutor<World, Snap, Event>,
  ]),
) as typeof executors;

const ign = (id: number) => SIGNUPS.find((s) => s.id === id)?.ign ?? `Sign-up #${id}`;

/** The room as the context says: whose turn, the teams' picks, the pool, the controls, the start form, the message. */
function roomShows(s: Snap, busy: boolean, w: World): void {
  const { draft } = s.context;
  if (w.expected) {
    expect(screen.getByTestId('draft-message').textContent).toBe(w.expected.text);
    expect(screen.getByTestId('draft-message').dataset.tone).toBe(w.expected.tone);
  } else expect(screen.queryByTestId('draft-message')).toBeNull();
  // The heading names the event.
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(`${DRAFT_TEXTS.title}: Draft Night`);
  // A finished draft's captains and picks are on their teams: never offered as captains again.
  const free = freeAgents(SIGNUPS, draft);
  if (draft) for (const id of [...draft.captains.map((c) => c.signup_id), ...draft.picks.map((p) => p.signup_id)]) expect(screen.queryByRole('checkbox', { name: new RegExp(`^${ign(id)}`) })).toBeNull();
  expect(screen.queryByText(DRAFT_TEXTS.noSignups)).toBeNull();
  const startShown = draft === null || (draft.status === 'done' && free.length > 0);
  const start = screen.queryByRole('button', { name: DRAFT_TEXTS.start }) as HTMLButtonElement | null;
  expect(start !== null).toBe(startShown);
  // Start waits for two captains ticked (the form keeps them after a refusal) and for nothing running.
  const ticked = screen.queryAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked).length;
  if (start) expect(start.disabled).toBe(busy || ticked < 2);
  if (!draft) {
    expect(screen.getByTestId('draft-none').textContent).toBe(DRAFT_TEXTS.none);
    return;
  }
  const unknown = [...draft.pool, ...draft.picks.map((p) => p.signup_id)].includes(UNKNOWN);
  expect(screen.queryByRole('button', { name: DRAFT_TEXTS.refreshNames }) !== null).toBe(unknown);
  const status = screen.getByTestId('draft-status').textContent ?? '';
  if (draft.status === 'running') expect(status).toMatch(new RegExp(`^Round ${draft.round}: Team ${ign(draft.on_the_clock === T1 ? 1 : 2)} is on the clock \\(\\d+ s left\\)\\.`));
  if (draft.status === 'paused') expect(status).toBe(`The draft is paused (round ${draft.round}).`);
  if (draft.status === 'done') expect(status).toContain('The draft is over');
  expect(status.includes(DRAFT_TEXTS.yourTurn)).toBe(draft.on_the_clock === T1);
  for (const [teamId, captain] of [[T1, 1], [T2, 2]]) {
    const items = within(screen.getByTestId(`draft-team-${teamId}`)).getAllByRole('listitem').map((li) => li.textContent);
    const picks = draft.picks.filter((p) => p.team_id === teamId).map((p) => `${ign(p.signup_id)}${p.auto ? ` ${DRAFT_TEXTS.auto}` : ''}`);
    expect(items).toEqual([DRAFT_TEXTS.captain(ign(captain)), ...picks]);
  }
  const pool = screen.queryByTestId('draft-pool');
  if (draft.pool.length === 0) expect(pool).toBeNull();
  else {
    // User text (an IGN with markup) is shown as text, never as HTML.
    expect(within(pool!).getAllByRole('listitem').map((li) => li.querySelector('.draft-room__player')?.textContent)).toEqual(draft.pool.map(ign));
    expect(pool!.querySelector('b')).toBeNull();
    const picks = within(pool!).queryAllByRole('button');
    expect(picks.length).toBe(draft.on_the_clock === T1 ? draft.pool.length : 0);
    for (const b of picks) expect((b as HTMLButtonElement).disabled).toBe(busy || draft.status !== 'running');
  }
  if (draft.status === 'done') expect(screen.queryByRole('group', { name: DRAFT_TEXTS.controls })).toBeNull();
  else {
    expect(button('Pause').disabled).toBe(busy || draft.status !== 'running');
    expect(button('Resume').disabled).toBe(busy || draft.status !== 'paused');
    expect(button('Undo Last Pick').disabled).toBe(busy || draft.picks.length === 0);
    expect(button('End Draft').disabled).toBe(busy);
  }
}

modelTests<Snap, Event, World>({
  name: 'draftRoom',
  machine: draftRoomMachine,
  events,
  // A refusal is a state of its own per control it answered (else the first one hides the others),
  // and so is each outcome the banner shows.
  serialize: (s, e, prev) => JSON.stringify([s.value, e?.type === 'draft.reload', e?.type.startsWith('xstate.error') ? prev?.value : null, s.context.draft && [s.context.draft.status, s.context.draft.round, s.context.draft.picks.length, s.context.draft.pool, s.context.draft.on_the_clock], s.context.error, e && prev ? outcomeOf(e, prev)?.text ?? null : null]),
  dropPrefixPaths: true,
  executors: tracked,
  render: () => renderRoom(),
  assertions: {
    loading: () => {
      expect(room().dataset.phase).toBe('loading');
      expect(screen.getByText(DRAFT_TEXTS.loading)).toBeTruthy();
    },
    failed: () => {
      expect(within(room()).getAllByRole('alert')[0].textContent).toBe(LOAD_ERROR);
      expect(button('Retry')).toBeTruthy();
      expect(screen.queryByTestId('draft-status')).toBeNull();
    },
    loaded: (s) => expect(room().dataset.phase).toBe((s.value as { loaded: string }).loaded),
    'loaded.idle': (s, w) => roomShows(s, false, w),
    'loaded.starting': (s, w) => {
      roomShows(s, true, w);
      expect(screen.getByText(DRAFT_TEXTS.busy.starting)).toBeTruthy();
      expect(w.fx.calls('start').at(-1)).toEqual([7, 3, captainsFor(s.context.draft), 45]);
    },
    ...Object.fromEntries(
      Object.values(CONTROL_STATES).map((state) => [
        `loaded.${state}`,
        (s: Snap, w: World) => {
          roomShows(s, true, w);
          expect(screen.getByText(DRAFT_TEXTS.busy.controlling)).toBeTruthy();
          expect(w.fx.calls('control').at(-1)).toEqual([7, 3, controlOf(s)]);
        },
      ]),
    ),
    'loaded.picking': (s, w) => {
      roomShows(s, true, w);
      expect(screen.getByText(DRAFT_TEXTS.busy.picking)).toBeTruthy();
      expect(w.feed.commands.at(-1)).toEqual({ type: 'pick', signupId: s.context.draft!.pool[0] });
    },
  },
  guards: (paths) => {
    const texts = new Set(paths.flatMap((p) => p.steps.map((st, i) => (i > 0 ? outcomeOf(st.event, p.steps[i - 1].state)?.text : undefined))));
    for (const t of Object.values(DRAFT_ROOM_TEXTS).filter((t) => t !== DRAFT_ROOM_TEXTS.actionFailed)) expect(texts.has(t), t).toBe(true);
    for (const t of [REFUSED, NOT_IN_POOL]) expect(texts.has(t), t).toBe(true);
  },
});
