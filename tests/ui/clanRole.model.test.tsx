// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { __unsafe_getAllOwnEventDescriptors, createActor, type SnapshotFrom } from 'xstate';
import { modelTests, shortestPaths, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { countingSession, fakeUser, renderRoutes } from '../support/render';
import { clanRoleMachine, CLAN_ROLE_DELAYS, type ClanRoleEvent, type RoleTarget, type RoleViewer } from '../../machines/clanRole.machine';
import { roleMessages } from '../../contract/clanRoleText';
import { clanDataMachine, type ClanDataEvent } from '../../machines/clanData.machine';
import type { ClanRole, User } from '../../contract/user';
import { OWNER_LEAVE_HINT, type ClanMember } from '../../contract/clan';
import { ClanManagePage, ACTION_PENDING_TEXT } from '../../src/features/clan/ClanManagePage';
import { ClanLoadError, type ClanManageEffects } from '../../src/features/clan/effects';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based tests of the clanRole chart (docs/client.md §5, §11,
 * §12) and the clanData chart (docs/client.md §11) through the rendered clan
 * management screen (/clans/manage/7) with fake calls. Paths are generated from the charts and
 * driven by clicks; timers are fake (the 500 ms wait, the 4 s fade and the 5 s removal).
 */

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const CLAN_ID = 7;
const CLAN_NAME = 'Iron Snakes';
const member = (member_id: number, username: string, role: ClanRole): ClanMember => ({
  member_id,
  username,
  role,
  joined_at: '2026-01-02T10:00:00.000Z',
  last_login: member_id === 4 ? null : '2026-02-03T10:00:00.000Z',
  clan_name: CLAN_NAME,
  discord_id: null,
});
const OLGA = member(1, 'Olga', 'Owner');
const ADAM = member(2, 'Adam', 'Admin');
const MIA = member(3, 'Mia', 'Member');
const GUS = member(4, 'Gus', 'Guest');
const ROSTER = { clan_id: CLAN_ID, clan_name: CLAN_NAME, members: [OLGA, ADAM, MIA, GUS] };
/** A second Admin: an Admin's Demote is offered on her row and refused by the chart (docs/client.md §5). */
const ANN = member(5, 'Ann', 'Admin');
const TWO_ADMINS = { ...ROSTER, members: [...ROSTER.members, ANN] };

const target = (m: ClanMember): RoleTarget => ({ member_id: m.member_id, username: m.username, role: m.role });
const viewerOf = (m: ClanMember): RoleViewer => ({ userId: m.member_id, role: m.role, managerCount: 2, clanName: CLAN_NAME });

const api = (message: string, status = 409) => new ApiRequestError(message, status);


interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** User loads so far (the first, then one per session.reload). */
  loads: () => number;
  /** Clan loads so far. */
  clanLoads: () => number;
  /** What the path did so far, recorded by the executors, so the screen can be checked against it. */
  expected: { clanLoads: number; userLoads: number; gusKicked: boolean };
  /** Deferred clan loads the test has settled (stale ones included). */
  settledLoads: number;
}


/** Renders the clan screen; `loadClan` answers `roster` at once unless `deferredLoad`. */
function renderClanPage(viewer: ClanMember, deferredLoad = false, roster = ROSTER): World {
  const fx = new FakeEffects();
  const deferred = fx.fn('loadClan');
  let clanLoads = 0;
  const effects: ClanManageEffects = {
    loadClan: deferredLoad
      ? deferred
      : async () => {
          clanLoads += 1;
          return roster;
        },
    loadAvailableUsers: async () => [],
    addMember: fx.fn('addMember'),
    changeRole: fx.fn('changeRole'),
    kickMember: fx.fn('kickMember'),
    leaveClan: fx.fn('leaveClan'),
    renameClan: fx.fn('renameClan'),
    disbandClan: fx.fn('disbandClan'),
  };
  const session = countingSession(fakeUser({ id: viewer.member_id, username: viewer.username }));
  renderRoutes(
    [
      { path: '/clans/manage/:clanId/*', element: <ClanManagePage effects={effects} /> },
      { path: '/profile', element: <p>Profile page</p> },
      { path: '/', element: <p>Login page</p> },
    ],
    `/clans/manage/${CLAN_ID}`,
    session.logic,
  );
  return {
    fx,
    user: userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime }),
    loads: session.loads,
    clanLoads: () => (deferredLoad ? fx.calls('loadClan').length : clanLoads),
    expected: { clanLoads: 1, userLoads: 1, gusKicked: false },
    settledLoads: 0,
  };
}

const tabs = () => ['Members', 'Events', 'Tasks'].map((name) => screen.getByRole('tab', { name }));

// ---------------------------------------------------------------------------------------------
// clanRole
// ---------------------------------------------------------------------------------------------

type RoleSnap = SnapshotFrom<typeof clanRoleMachine>;
type RoleSynthetic =
  | { type: 'xstate.done.actor.changeMemberRole'; output: ClanMember }
  | { type: 'xstate.error.actor.changeMemberRole'; error: Error }
  | { type: 'xstate.done.actor.kickMember'; output: unknown }
  | { type: 'xstate.error.actor.kickMember'; error: Error }
  | { type: 'xstate.done.actor.leaveClan'; output: unknown }
  | { type: 'xstate.error.actor.leaveClan'; error: Error }
  | { type: 'xstate.done.actor.disbandClan'; output: unknown }
  | { type: 'xstate.error.actor.disbandClan'; error: Error }
  | { type: 'xstate.after.announceWait.clanRole.flow.leaving.announcing' }
  | { type: 'xstate.after.announceWait.clanRole.flow.disbanding.announcing' }
  | { type: 'xstate.after.messageFade.clanRole.message.shown' }
  | { type: 'xstate.after.messageRemove.clanRole.message.fading' };
/** `message.show` is raised by the chart itself, never sent from outside. */
type RoleModelEvent = Exclude<ClanRoleEvent, { type: 'message.show' }> | RoleSynthetic;

/** Server refusals the fake calls answer with (the screen shows the server's text). */
const FAILURES = {
  promote: 'Failed to promote member. Please check hierarchy rules.',
  demote: 'Permission denied. Only the clan Owner can demote an Admin.',
  transfer: 'The member list changed meanwhile. Reload the clan and try again.',
  kick: 'Failed to kick member. Please check permissions.',
  leave: 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.',
  disband: 'Failed to disband clan. Please retry.',
} as const;

/**
 * Three viewers: the Owner (every manager action; her own Leave Clan is disabled while Adam is an
 * Admin, so it is no intent of hers: see the test below), a Member (leave), and an Admin beside a
 * second Admin (Ann): Demote shows on Ann's row (docs/client.md §5: not for Guests or the Owner)
 * and the chart refuses it, also while the refusal fades, so a new message replaces a fading one.
 */
const SCENARIOS: readonly { name: string; viewer: ClanMember; roster?: typeof ROSTER; intents: (v: RoleViewer) => RoleModelEvent[]; whileFading?: boolean }[] = [
  {
    name: 'as the Owner',
    viewer: OLGA,
    intents: (v: RoleViewer): RoleModelEvent[] => [
      { type: 'member.promote', member: target(MIA), viewer: v },
      { type: 'member.promote', member: target(ADAM), viewer: v },
      { type: 'member.demote', member: target(ADAM), viewer: v },
      { type: 'member.kick', member: target(GUS), viewer: v },
      { type: 'clan.disband', viewer: v },
    ],
  },
  {
    name: 'as a Member',
    viewer: MIA,
    intents: (v: RoleViewer): RoleModelEvent[] => [{ type: 'clan.leave', viewer: v }],
  },
  {
    name: 'as an Admin',
    viewer: ADAM,
    roster: TWO_ADMINS,
    intents: (v: RoleViewer): RoleModelEvent[] => [{ type: 'member.demote', member: target(ANN), viewer: { ...v, managerCount: 3 } }],
    whileFading: true,
  },
];

/**
 * Events possible in a state. Intents start from an idle screen without a message, except one
 * (kicking Gus) started while a refusal message shows, and, `whileFading`, the scenario's intents
 * while a message fades; timers run on an idle screen and during the 500 ms wait (the wait always
 * ends before a fresh message fades).
 */
function roleEvents(intents: RoleModelEvent[], whileFading = false) {
  return (s: RoleSnap): RoleModelEvent[] => {
    const kind = s.context.request?.kind ?? 'promote';
    const list: RoleModelEvent[] = [];
    if (s.matches({ flow: 'idle' })) {
      if (s.matches({ message: 'hidden' })) list.push(...intents);
      else if (!s.context.request && s.matches({ message: 'shown' })) list.push(...intents.filter((e) => e.type === 'member.kick'));
      else if (whileFading && s.matches({ message: 'fading' })) list.push(...intents);
      list.push({ type: 'xstate.after.messageFade.clanRole.message.shown' }, { type: 'xstate.after.messageRemove.clanRole.message.fading' });
    }
    list.push(
      { type: 'roleAction.confirm' },
      { type: 'roleAction.cancel' },
      { type: 'xstate.after.announceWait.clanRole.flow.leaving.announcing' },
      { type: 'xstate.after.announceWait.clanRole.flow.disbanding.announcing' },
      { type: 'xstate.done.actor.changeMemberRole', output: { ...MIA, role: 'Admin' } },
      { type: 'xstate.error.actor.changeMemberRole', error: new Error(FAILURES[kind as 'promote'] ?? FAILURES.promote) },
      { type: 'xstate.done.actor.kickMember', output: { ok: true } },
      { type: 'xstate.error.actor.kickMember', error: new Error(FAILURES.kick) },
      { type: 'xstate.done.actor.leaveClan', output: { ok: true } },
      { type: 'xstate.error.actor.leaveClan', error: new Error(FAILURES.leave) },
      { type: 'xstate.done.actor.disbandClan', output: { ok: true } },
      { type: 'xstate.error.actor.disbandClan', error: new Error(FAILURES.disband) },
    );
    // Only what the state handles (the traversal takes the list as given).
    const handled = new Set(__unsafe_getAllOwnEventDescriptors(s));
    return list.filter((e) => handled.has(e.type));
  };
}

/**
 * Value, request and message tell states apart; a cancel keeps its edge, so each cancel is its own
 * path, and so does a message that replaces a fading one.
 */
function serializeRole(s: RoleSnap, event?: RoleModelEvent, prev?: RoleSnap): string {
  const base = JSON.stringify([s.value, s.context.request?.kind ?? null, s.context.message?.text ?? null]);
  if (event?.type === 'roleAction.cancel') return `${base} via cancel from ${JSON.stringify(prev?.value)}`;
  return prev?.matches({ message: 'fading' }) && s.matches({ message: 'shown' }) ? `${base} replacing a fading message` : base;
}

/** A scenario's paths (as the harness takes them), for the guard over every viewer. */
const rolePaths = (intents: RoleModelEvent[], whileFading?: boolean) =>
  shortestPaths<RoleSnap, RoleModelEvent>(clanRoleMachine, roleEvents(intents, whileFading), serializeRole, { input: { clanId: CLAN_ID } });

const confirmLabel = { transfer: 'Transfer Ownership', kick: 'Kick Member', leave: 'Leave Clan', disband: 'Disband Clan' } as const;
const dialogTitle = confirmLabel;

type RoleExecutor = ModelExecutor<World, RoleSnap, RoleModelEvent>;

const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
const inDialog = () => within(screen.getByRole('dialog'));
const settle = (w: World, name: string, how: 'resolve' | 'reject', value: unknown) => act(() => (how === 'resolve' ? w.fx.resolve(name, value) : w.fx.reject(name, api((value as Error).message))));

const ROLE_EXECUTORS = {
  'member.promote': async (w, { event }) => {
    if (event.type !== 'member.promote') return;
    const label = event.member.role === 'Admin' ? 'Transfer Ownership' : 'Promote';
    await w.user.click(screen.getByRole('button', { name: `${label} ${event.member.username}` }));
  },
  'member.demote': async (w, { event }) => {
    if (event.type === 'member.demote') await w.user.click(screen.getByRole('button', { name: `Demote ${event.member.username}` }));
  },
  'member.kick': async (w, { event }) => {
    if (event.type === 'member.kick') await w.user.click(screen.getByRole('button', { name: `Kick ${event.member.username}` }));
  },
  'clan.leave': async (w) => w.user.click(screen.getByRole('button', { name: 'Leave Clan' })),
  'clan.disband': async (w) => {
    screen.getByRole('button', { name: 'Clan settings' }).focus();
    await w.user.keyboard('{Enter}');
    await w.user.click(await screen.findByRole('menuitem', { name: 'Disband Clan' }));
  },
  'roleAction.confirm': async (w, { state }) => {
    // The step's state is the one after the event; the dialog was for the request it carries.
    const kind = state.context.request!.kind as keyof typeof confirmLabel;
    await w.user.click(inDialog().getByRole('button', { name: confirmLabel[kind] }));
  },
  'roleAction.cancel': async (w) => w.user.click(inDialog().getByRole('button', { name: 'Cancel' })),
  'xstate.done.actor.changeMemberRole': async (w, { event, state }) => {
    w.expected.clanLoads += 1;
    if (state.context.request?.kind === 'transfer') w.expected.userLoads += 1;
    await settle(w, 'changeRole', 'resolve', 'output' in event ? event.output : null);
  },
  'xstate.error.actor.changeMemberRole': async (w, { event }) => settle(w, 'changeRole', 'reject', 'error' in event ? event.error : null),
  'xstate.done.actor.kickMember': async (w) => {
    w.expected.gusKicked = true;
    await settle(w, 'kickMember', 'resolve', undefined);
  },
  'xstate.error.actor.kickMember': async (w, { event }) => settle(w, 'kickMember', 'reject', 'error' in event ? event.error : null),
  'xstate.done.actor.leaveClan': async (w) => {
    w.expected.userLoads += 1;
    await settle(w, 'leaveClan', 'resolve', undefined);
  },
  'xstate.error.actor.leaveClan': async (w, { event }) => {
    w.expected.clanLoads += 1;
    await settle(w, 'leaveClan', 'reject', 'error' in event ? event.error : null);
  },
  'xstate.done.actor.disbandClan': async (w) => {
    w.expected.userLoads += 1;
    await settle(w, 'disbandClan', 'resolve', undefined);
  },
  'xstate.error.actor.disbandClan': async (w, { event }) => settle(w, 'disbandClan', 'reject', 'error' in event ? event.error : null),
  'xstate.after.announceWait.clanRole.flow.leaving.announcing': async () => advance(CLAN_ROLE_DELAYS.announceWait),
  'xstate.after.announceWait.clanRole.flow.disbanding.announcing': async () => advance(CLAN_ROLE_DELAYS.announceWait),
  'xstate.after.messageFade.clanRole.message.shown': async () => advance(CLAN_ROLE_DELAYS.messageFade),
  'xstate.after.messageRemove.clanRole.message.fading': async () => advance(CLAN_ROLE_DELAYS.messageRemove),
} satisfies Record<RoleModelEvent['type'], RoleExecutor>;

/** The pending screen: the pending text shows and every tab is disabled (docs/client.md §1). */
function expectPending() {
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByTestId('clan-pending').textContent).toBe(ACTION_PENDING_TEXT);
  for (const tab of tabs()) expect(tab.hasAttribute('disabled')).toBe(true);
}

const messageEl = () => screen.queryByTestId('clan-action-message');
const confirming = (kind: keyof typeof dialogTitle) => async (s: RoleSnap) => {
  const dialog = await screen.findByRole('dialog');
  within(dialog).getByRole('heading', { name: dialogTitle[kind] });
  const who = s.context.request?.member?.username ?? CLAN_NAME;
  expect(within(dialog).getByText(new RegExp(who)).textContent).toContain(who);
};

const ROLE_ASSERTIONS: Record<string, (s: RoleSnap, w: World) => Promise<void>> = {
  flow: async () => {},
  'flow.idle': async (_s, w) => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByTestId('clan-pending')).toBeNull();
    for (const tab of tabs()) expect(tab.hasAttribute('disabled')).toBe(false);
    // A role change and a failed leave reload the clan; a transfer refreshes the user too (docs/game-rules.md §6).
    await waitFor(() => expect(w.clanLoads()).toBe(w.expected.clanLoads));
    await waitFor(() => expect(w.loads()).toBe(w.expected.userLoads));
    // A kicked member's row goes at once, without a reload (docs/game-rules.md §6).
    expect(screen.queryByTestId(`member-row-${GUS.member_id}`) === null).toBe(w.expected.gusKicked);
  },
  'flow.confirmingTransfer': confirming('transfer'),
  'flow.confirmingKick': confirming('kick'),
  'flow.confirmingLeave': confirming('leave'),
  'flow.confirmingDisband': confirming('disband'),
  'flow.changingRole': async (s, w) => {
    expectPending();
    const r = s.context.request!;
    expect(w.fx.calls('changeRole').at(-1)).toEqual([CLAN_ID, r.member!.member_id, r.newRole, r.kind === 'demote' ? 'demote' : 'promote']);
  },
  'flow.kicking': async (s, w) => {
    expectPending();
    expect(w.fx.calls('kickMember').at(-1)).toEqual([CLAN_ID, s.context.request!.member!.member_id]);
  },
  'flow.leaving': async () => expectPending(),
  // The success message shows first; the call waits 500 ms (docs/game-rules.md §6; docs/client.md §12).
  'flow.leaving.announcing': async (_s, w) => {
    expect(screen.getByTestId('clan-action-message').textContent).toBe(roleMessages.left(CLAN_NAME));
    expect(w.fx.calls('leaveClan')).toEqual([]);
  },
  'flow.leaving.calling': async (s, w) => expect(w.fx.calls('leaveClan')).toEqual([[CLAN_ID, s.context.request!.viewer.userId]]),
  'flow.disbanding': async () => expectPending(),
  'flow.disbanding.announcing': async (_s, w) => {
    expect(screen.getByTestId('clan-action-message').textContent).toBe(roleMessages.disbanded(CLAN_NAME));
    expect(w.fx.calls('disbandClan')).toEqual([]);
  },
  'flow.disbanding.calling': async (_s, w) => expect(w.fx.calls('disbandClan')).toEqual([[CLAN_ID]]),
  // Left or disbanded: the user is refreshed and lands on /profile (docs/game-rules.md §6).
  'flow.departed': async (_s, w) => {
    await screen.findByText('Profile page');
    await waitFor(() => expect(w.loads()).toBe(w.expected.userLoads));
  },
  message: async () => {},
  'message.hidden': async (s) => {
    if (!s.matches({ flow: 'departed' })) expect(messageEl()).toBeNull();
  },
  'message.shown': async (s) => {
    if (s.matches({ flow: 'departed' })) return;
    const el = await screen.findByTestId('clan-action-message');
    expect(el.textContent).toBe(s.context.message!.text);
    expect(el.getAttribute('data-tone')).toBe(s.context.message!.tone);
    expect(el.className).not.toContain('action-message--fading');
  },
  'message.fading': async (s) => {
    const el = screen.getByTestId('clan-action-message');
    expect(el.textContent).toBe(s.context.message!.text);
    expect(el.className).toContain('action-message--fading');
  },
};

/** How a role event reads in a test name: delays and actor answers shortened, the member named. */
const roleLabel = (event: RoleModelEvent) => {
  const e = event as { type: string; member?: RoleTarget };
  const short = e.type.replace(/^xstate\.(after\.(\w+)\..*|(done|error)\.actor\.(\w+))$/, (_m, _a, delay, kind, actor) => delay ?? `${kind}(${actor})`);
  return e.member ? `${short}(${e.member.username})` : short;
};

/** The chart's input, with the scenario (the viewer) the screen is rendered for; the chart reads only clanId. */
type RoleInput = { clanId: number; scenario: (typeof SCENARIOS)[number]['name'] };
const scenarioOf = (input: unknown) => SCENARIOS.find((sc) => sc.name === (input as RoleInput).scenario)!;

modelTests<RoleSnap, RoleModelEvent, World>({
  name: 'clanRole',
  machine: clanRoleMachine,
  inputs: SCENARIOS.map((sc): RoleInput => ({ clanId: CLAN_ID, scenario: sc.name })),
  events: (s, input) => {
    const sc = scenarioOf(input);
    return roleEvents(sc.intents(viewerOf(sc.viewer)), sc.whileFading)(s);
  },
  serialize: serializeRole,
  dropPrefixPaths: true,
  executors: ROLE_EXECUTORS,
  assertions: ROLE_ASSERTIONS,
  fakeTimers: true,
  label: roleLabel,
  render: async (input) => {
    const sc = scenarioOf(input);
    const w = renderClanPage(sc.viewer, false, sc.roster);
    await screen.findByRole('heading', { name: CLAN_NAME });
    return w;
  },
  guards: (paths) => {
    // An Admin's Demote of another Admin is refused with the server's rule text, and a new message replaces a fading one.
    const steps = paths.flatMap((p) => p.steps.map((st, i) => ({ st, prev: i > 0 ? p.steps[i - 1].state : undefined })));
    expect(steps.some(({ st }) => st.state.context.message?.text === 'Permission denied. Only the clan Owner can demote an Admin.')).toBe(true);
    expect(steps.some(({ st, prev }) => prev?.matches({ message: 'fading' }) && st.event.type === 'member.demote' && st.state.matches({ message: 'shown' }))).toBe(true);
  },
  // The row buttons (memberTable.ts rowActions, docs/client.md §5) are enabled only where these guards pass, from the same viewer and row the event carries.
  uncovered: {
    'flow.idle -> member.promote [isAtLadderTop]': "The Owner's row never has an enabled Promote button (rowActions), so the screen cannot ask to promote past Owner.",
    'flow.idle -> member.promote [else]': 'Promote is enabled only on Guest and Member rows of a manager (always allowed) and on Admin rows for the Owner (a transfer), so no enabled Promote is refused.',
    'flow.idle -> member.demote [isAtLadderBottom]': "A Guest's Demote button is disabled (rowActions), so the screen cannot ask to demote past Guest.",
    'flow.idle -> member.kick [else]': 'Kick is enabled only where checkKick allows it (Guest, Member, and Admin for the Owner) and never on the viewer\'s own row, so no enabled Kick is refused.',
    'flow.idle -> clan.leave [else]': 'Leave Clan is disabled exactly when canLeave refuses (a sole manager, or the Owner while another manager exists), so no enabled Leave Clan is refused.',
    'flow.idle -> clan.disband [else]': 'The settings menu with Disband Clan is rendered for the Owner only, so no one else can ask to disband.',
  },
});

describe('clan management screen beside the clanRole chart', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, advanceTimeDelta: 2 });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const scenarios = SCENARIOS.map((sc) => ({ ...sc, paths: rolePaths(sc.intents(viewerOf(sc.viewer)), sc.whileFading) }));

  it('moves between the clan tabs with the arrow keys, Home and End; only the selected tab is in the Tab order', async () => {
    const w = renderClanPage(MIA);
    await screen.findByRole('tab', { name: 'Members', selected: true });
    const selectedNow = (name: string) => {
      const tab = screen.getByRole('tab', { name });
      expect(tab.getAttribute('aria-selected')).toBe('true');
      expect(document.activeElement).toBe(tab);
      expect(tabs().map((t) => t.tabIndex)).toEqual(tabs().map((t) => (t === tab ? 0 : -1)));
    };
    // Radix moves the focus a tick after the key, so each key waits for the tab it selects.
    const press = async (key: string, name: string) => {
      await w.user.keyboard(key);
      await waitFor(() => selectedNow(name));
    };
    tabs()[0].focus();
    await press('{ArrowRight}', 'Events');
    await press('{ArrowLeft}', 'Members');
    await press('{ArrowLeft}', 'Tasks');
    await press('{ArrowRight}', 'Members');
    await press('{End}', 'Tasks');
    await press('{Home}', 'Members');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs()[0].id);
  });

  it("disables the Owner's Leave Clan while Adam is an Admin, described by the hint", async () => {
    renderClanPage(OLGA);
    const leave = await screen.findByRole('button', { name: 'Leave Clan', description: OWNER_LEAVE_HINT });
    expect(leave.hasAttribute('disabled')).toBe(true);
  });

  it('has an executor for every event a reached state handles, and covers the success, failure and cancel edges (guard)', () => {
    const executorTypes = new Set(Object.keys(ROLE_EXECUTORS));
    const handled = new Set<string>();
    const edges = new Set<string>();
    for (const sc of scenarios) {
      for (const p of sc.paths) {
        p.steps.forEach((st, i) => {
          for (const t of __unsafe_getAllOwnEventDescriptors(st.state)) handled.add(t);
          if (i > 0) edges.add(`${JSON.stringify(p.steps[i - 1].state.value.flow)} ${st.event.type}`);
        });
      }
    }
    handled.delete('message.show');
    for (const t of handled) expect(executorTypes.has(t), t).toBe(true);
    for (const edge of [
      '"confirmingTransfer" roleAction.cancel',
      '"confirmingKick" roleAction.cancel',
      '"confirmingLeave" roleAction.cancel',
      '"confirmingDisband" roleAction.cancel',
      '"changingRole" xstate.done.actor.changeMemberRole',
      '"changingRole" xstate.error.actor.changeMemberRole',
      '"kicking" xstate.done.actor.kickMember',
      '"kicking" xstate.error.actor.kickMember',
      '{"leaving":"calling"} xstate.done.actor.leaveClan',
      '{"leaving":"calling"} xstate.error.actor.leaveClan',
      '{"disbanding":"calling"} xstate.done.actor.disbandClan',
      '{"disbanding":"calling"} xstate.error.actor.disbandClan',
    ]) {
      expect(edges.has(edge), edge).toBe(true);
    }
    // The documented success texts appear on the way (docs/client.md §11), verbatim.
    const texts = new Set(scenarios.flatMap((sc) => sc.paths.flatMap((p) => p.steps.map((st) => st.state.context.message?.text))));
    for (const text of ['Mia successfully promoted to Admin.', 'Adam successfully demoted to Member.', 'Adam successfully promoted to Owner.', 'Gus was successfully kicked.']) {
      expect(texts.has(text), text).toBe(true);
    }
  });
});

describe('clanRole guards (docs/client.md §5, §12)', () => {
  /** The chart's snapshot after `e` from idle (no effect runs: refusals and confirmations only). */
  const after = (e: ClanRoleEvent) => {
    const actor = createActor(clanRoleMachine, { input: { clanId: CLAN_ID } }).start();
    actor.send(e);
    const s = actor.getSnapshot();
    actor.stop();
    return s;
  };
  const owner = viewerOf(OLGA);
  const admin = viewerOf(ADAM);

  it('refuses beyond the ladder ends with the spec texts', () => {
    expect(after({ type: 'member.promote', member: target(OLGA), viewer: admin }).context.message?.text).toBe('Cannot promote Olga further than Owner.');
    expect(after({ type: 'member.demote', member: target(GUS), viewer: owner }).context.message?.text).toBe('Cannot demote Gus further than Guest.');
    expect(roleMessages.cannotPromote('X')).toBe('Cannot promote X further than Owner.');
  });

  it('keeps Owner-only actions for the Owner', () => {
    for (const e of [
      { type: 'member.promote', member: target(member(5, 'Ann', 'Admin')), viewer: admin },
      { type: 'member.kick', member: target(member(5, 'Ann', 'Admin')), viewer: admin },
      { type: 'member.demote', member: target(member(5, 'Ann', 'Admin')), viewer: admin },
      { type: 'clan.disband', viewer: admin },
    ] as const) {
      const s = after(e);
      expect(s.matches({ flow: 'idle' }), e.type).toBe(true);
      expect(s.context.message?.tone).toBe('error');
    }
    expect(after({ type: 'member.kick', member: target(OLGA), viewer: admin }).context.message?.text).toBe('The clan Owner cannot be kicked.');
  });

  it('lets no sole manager leave, and no Member act on others', () => {
    const sole = { ...admin, managerCount: 1 };
    expect(after({ type: 'clan.leave', viewer: sole }).context.message?.text).toBe('As the sole manager, you must use the Disband Clan button on the Manage Clan page.');
    const mia = viewerOf(MIA);
    expect(after({ type: 'member.kick', member: target(GUS), viewer: mia }).matches({ flow: 'idle' })).toBe(true);
    expect(after({ type: 'member.promote', member: target(GUS), viewer: mia }).matches({ flow: 'idle' })).toBe(true);
    expect(after({ type: 'clan.leave', viewer: mia }).matches({ flow: 'confirmingLeave' })).toBe(true);
  });

  it("refuses the Owner's leave while another manager exists (the row's button is disabled with the same text)", () => {
    expect(after({ type: 'clan.leave', viewer: owner }).context.message?.text).toBe(OWNER_LEAVE_HINT);
  });

  it('names its delays with the spec values', () => {
    expect(CLAN_ROLE_DELAYS).toEqual({ announceWait: 500, messageFade: 4000, messageRemove: 1000 });
  });
});

// ---------------------------------------------------------------------------------------------
// clanData: loading the clan (docs/client.md §11)
// ---------------------------------------------------------------------------------------------

type DataSnap = SnapshotFrom<typeof clanDataMachine>;
type DataSynthetic =
  | { type: 'xstate.done.actor.loadClan'; output: typeof ROSTER }
  | { type: 'xstate.error.actor.loadClan'; error: ClanLoadError }
  | { type: 'xstate.done.actor.reloadClan'; output: typeof ROSTER }
  | { type: 'xstate.error.actor.reloadClan'; error: ClanLoadError };
type DataModelEvent = ClanDataEvent | DataSynthetic;

/** What the server answers and what the screen must say (docs/client.md §11). */
const LOAD_FAILURES = [
  { status: 404, server: `Clan ID ${CLAN_ID} not found.`, shown: `Clan ID ${CLAN_ID} not found.` },
  { status: 403, server: 'Permission denied. You are not authorized to manage this clan.', shown: 'Permission denied. You are not authorized to manage this clan.' },
  { status: 500, server: 'Internal trouble', shown: 'Failed to load clan data.' },
  { status: 401, server: 'Not signed in.', shown: '' },
];

function dataEvents(s: DataSnap): DataModelEvent[] {
  const failures = LOAD_FAILURES.map((f) => new ClanLoadError(f.shown, f.status));
  const list: DataModelEvent[] = [];
  if (s.matches('loading')) {
    list.push({ type: 'xstate.done.actor.loadClan', output: ROSTER });
    // A retry is only followed to its answer once (the errors were covered by the first load).
    if (!s.context.error) list.push(...failures.map((error) => ({ type: 'xstate.error.actor.loadClan' as const, error })));
  }
  if (s.matches({ ready: 'reloading' })) {
    // A second role change while the clan reloads starts the load again (once, from the clan as loaded).
    if (s.context.clanName === CLAN_NAME && s.context.members.length === ROSTER.members.length) list.push({ type: 'clan.reload' });
    list.push({ type: 'xstate.done.actor.reloadClan', output: ROSTER });
    list.push(...failures.filter((f) => f.status === 500 || f.status === 401).map((error) => ({ type: 'xstate.error.actor.reloadClan' as const, error })));
  }
  if (s.matches({ ready: 'current' })) {
    list.push({ type: 'clan.reload' }, { type: 'clan.renamed', name: 'Iron Ladders' });
    if (s.context.members.some((m) => m.member_id === GUS.member_id)) list.push({ type: 'clan.memberRemoved', memberId: GUS.member_id });
  }
  if (s.matches('failed')) list.push({ type: 'clan.reload' });
  return list;
}

function serializeData(s: DataSnap, event?: DataModelEvent, prev?: DataSnap): string {
  const base = JSON.stringify([s.value, s.context.error, s.context.clanName, s.context.members.length]);
  if (event?.type === 'clan.reload' && prev?.matches({ ready: 'reloading' })) return `${base} reloading again`;
  return event && prev && JSON.stringify(prev.value) !== JSON.stringify(s.value) ? `${base} via ${event.type} from ${JSON.stringify(prev.value)}` : base;
}

type DataExecutor = ModelExecutor<World, DataSnap, DataModelEvent>;

/**
 * Settles the clan load under way: loads a reload replaced first (the chart stopped them, so their
 * answers are dropped), then the latest one as `settle` says.
 */
async function settleLoad(w: World, settle: (fx: FakeEffects) => Promise<void>) {
  await waitFor(() => expect(w.clanLoads()).toBe(w.expected.clanLoads));
  while (w.settledLoads < w.expected.clanLoads - 1) {
    await act(() => w.fx.resolve('loadClan', ROSTER));
    w.settledLoads += 1;
  }
  await act(() => settle(w.fx));
  w.settledLoads += 1;
}

const fail = (w: World, event: DataModelEvent) => {
  const status = (event as { error: ClanLoadError }).error.status;
  return settleLoad(w, (fx) => fx.reject('loadClan', api(LOAD_FAILURES.find((f) => f.status === status)!.server, status)));
};

const DATA_EXECUTORS = {
  'xstate.done.actor.loadClan': async (w) => settleLoad(w, (fx) => fx.resolve('loadClan', ROSTER)),
  'xstate.error.actor.loadClan': async (w, { event }) => fail(w, event),
  'xstate.done.actor.reloadClan': async (w) => settleLoad(w, (fx) => fx.resolve('loadClan', ROSTER)),
  'xstate.error.actor.reloadClan': async (w, { event }) => fail(w, event),
  // Retry on the error screen; on the loaded screen (reloading or not) a role change reloads the clan.
  'clan.reload': async (w) => {
    w.expected.clanLoads += 1;
    const retry = screen.queryByRole('button', { name: 'Retry' });
    if (retry) return w.user.click(retry);
    await w.user.click(screen.getByRole('button', { name: 'Promote Mia' }));
    await act(() => w.fx.resolve('changeRole', { ...MIA, role: 'Admin' }));
  },
  // Kicking Gus removes his row locally.
  'clan.memberRemoved': async (w) => {
    await w.user.click(screen.getByRole('button', { name: 'Kick Gus' }));
    await w.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Kick Member' }));
    await act(() => w.fx.resolve('kickMember'));
  },
  // The Owner's pencil renames the clan (docs/game-rules.md §13; docs/client.md §11 success text).
  'clan.renamed': async (w, { event }) => {
    if (event.type !== 'clan.renamed') return;
    await w.user.click(screen.getByRole('button', { name: 'Edit clan name' }));
    const input = within(screen.getByRole('dialog')).getByLabelText('New clan name');
    await w.user.clear(input);
    await w.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save Name' }));
    expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toBe('Clan name cannot be empty or the same as the current name.');
    await w.user.type(input, event.name);
    await w.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save Name' }));
    await act(() => w.fx.resolve('renameClan', event.name));
    // Done: the modal closes by itself and the fading banner says so.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(screen.getByTestId('action-result')).getByRole('status').textContent).toBe(`Clan name successfully updated to: ${event.name}`);
  },
} satisfies Record<DataModelEvent['type'], DataExecutor>;

const DATA_ASSERTIONS: Record<string, (s: DataSnap, w: World) => Promise<void>> = {
  loading: async (_s, w) => {
    screen.getByText('Loading clan data...');
    await waitFor(() => expect(w.clanLoads()).toBe(w.expected.clanLoads));
  },
  ready: async (s) => {
    await screen.findByRole('heading', { name: s.context.clanName });
    const managers = s.context.members.filter((m) => m.role === 'Owner' || m.role === 'Admin').length;
    expect(screen.getByTestId('clan-counts').textContent).toBe(`Total Managers / Total Members: ${managers} / ${s.context.members.length}`);
    expect(screen.getByTestId('members-range').textContent).toBe(`1-${s.context.members.length} of ${s.context.members.length} members`);
    const link = screen.getByRole('link', { name: 'Profile' });
    expect(link.getAttribute('href')).toBe('/profile');
  },
  'ready.current': async () => {},
  'ready.reloading': async (_s, w) => {
    // The shown data stays while the clan reloads in the background; each reload asks again.
    expect(screen.queryByText('Loading clan data...')).toBeNull();
    await waitFor(() => expect(w.clanLoads()).toBe(w.expected.clanLoads));
  },
  failed: async (s) => {
    expect((await screen.findByTestId('clan-load-error')).textContent).toBe(s.context.error);
    screen.getByRole('button', { name: 'Retry' });
  },
  // 401: the session is closed and the screen goes to / (docs/client.md §11).
  signedOut: async (_s, w) => {
    await screen.findByText('Login page');
    expect(w.fx.calls('loadClan').length).toBeGreaterThan(0);
  },
};

modelTests<DataSnap, DataModelEvent, World>({
  name: 'clanData (clan load)',
  machine: clanDataMachine,
  inputs: [{ clanId: CLAN_ID }],
  // The screen for the path's input: the owner's Clan Management page, whose clan loads the executors settle.
  render: () => renderClanPage(OLGA, true),
  events: dataEvents,
  serialize: serializeData,
  dropPrefixPaths: true,
  executors: DATA_EXECUTORS,
  assertions: DATA_ASSERTIONS,
  label: (event) => {
    const status = (event as { error?: ClanLoadError }).error?.status;
    return event.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)') + (status ? `[${status}]` : '');
  },
  guards: (paths) => {
    // Every load error text of the docs is shown.
    const errors = new Set(paths.flatMap((p) => p.steps.map((st) => st.state.context.error)));
    for (const text of ['Clan ID 7 not found.', 'Permission denied. You are not authorized to manage this clan.', 'Failed to load clan data.']) expect(errors.has(text), text).toBe(true);
  },
});
