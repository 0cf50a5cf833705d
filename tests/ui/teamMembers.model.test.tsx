// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { teamMembersMachine, type MemberAnswer, type TeamMembersEvent } from '../../machines/teamMembers.machine';
import {
  teamMemberAddedMessage,
  teamMemberRemovedMessage,
  teamRoleUpdatedMessage,
  type Team,
  type TeamMember,
  type TeamMembersAnswer,
  type TeamRole,
} from '../../contract/team';
import { TeamMemberManager } from '../../src/features/teams/TeamMemberManager';
import type { TeamsEffects } from '../../src/features/teams/teamsEffects';
import { ApiRequestError } from '../../src/api/client';

/**
 * Model-based test of the teamMembers chart (docs/client.md §6,
 * §11) through the rendered inline member manager: loading and its failure,
 * adding a member (the IGN leaves the eligible list), the optimistic role change and its revert
 * on failure, a confirmed removal (the IGN comes back, sorted by name), and the message that fades
 * at 4 s and clears at 5 s (fake timers). Paths are generated from the chart by the one harness
 * (docs/architecture.md §6), per scenario: the chart takes no input, so the scenario rides in the
 * input only to bound the events offered (an add, a role change, a removal).
 */

type Snap = SnapshotFrom<typeof teamMembersMachine>;
const FADE = 'xstate.after.messageFade.teamMembers.ready.notice.shown';
const CLEAR = 'xstate.after.messageRemove.teamMembers.ready.notice.fading';
type Synthetic =
  | { type: 'xstate.done.actor.loadMembers'; output: TeamMembersAnswer }
  | { type: 'xstate.error.actor.loadMembers'; error: Error }
  | { type: 'xstate.done.actor.addMember'; output: MemberAnswer }
  | { type: 'xstate.error.actor.addMember'; error: Error }
  | { type: 'xstate.done.actor.changeRole'; output: MemberAnswer }
  | { type: 'xstate.error.actor.changeRole'; error: Error }
  | { type: typeof FADE }
  | { type: typeof CLEAR };
type ModelEvent = TeamsMembersUserEvent | Synthetic;
type TeamsMembersUserEvent = TeamMembersEvent;

const CLAN_ID = 7;
const EVENT_ID = 3;
const TEAM: Team = { id: 9, name: 'Red Dragons', color: '#c0392b', member_count: 1, discord_role_id: null };
const WOOX: TeamMember = { id: 100, osrs_ign: 'Woox', osrs_ign_id: 21, role: 'Leader', discord_id: 'd2' };
const ANSWER: TeamMembersAnswer = {
  team_members: [WOOX],
  // bob (d2) has no other free IGN, so a returning Woox has no known owner name.
  eligible_members: [{ discord_id: 'd1', discord_username: 'alice', user_id: 1, osrs_accounts: [{ id: 11, ign: 'Zezima' }] }],
};
const LOAD_FAILED = 'Failed to fetch team members and available list.';
const ADD_FAILED = 'Zezima is already on team Blue Wizards for this event.';
const ROLE_FAILED = 'Failed to update role for Woox.';

type Scenario = 'add' | 'role' | 'remove';
/** The input a path starts from: the chart reads none; the scenario bounds the events offered. */
type ScenarioInput = { scenario: Scenario };

/** Events a person, the fake server or the clock can cause in a state, per scenario. */
function eventsFor(scenario: Scenario) {
  return (s: Snap): ModelEvent[] => {
    const c = s.context;
    const list: ModelEvent[] = [];
    if (s.matches('loading')) {
      list.push({ type: 'xstate.done.actor.loadMembers', output: ANSWER });
      if (scenario === 'add') list.push({ type: 'xstate.error.actor.loadMembers', error: new Error(LOAD_FAILED) });
      return list;
    }
    if (s.matches('failed')) return [{ type: 'members.reload' }];
    const addingIdle = s.matches({ ready: { adding: 'idle' } });
    const roleIdle = s.matches({ ready: { roleChange: 'idle' } });
    if (s.matches({ ready: { notice: 'shown' } })) list.push({ type: FADE });
    if (s.matches({ ready: { notice: 'fading' } })) list.push({ type: CLEAR });
    const woox = c.members.find((m) => m.id === WOOX.id);
    if (scenario === 'add') {
      if (addingIdle && c.selectedIgnId === null && c.eligible.length > 0) list.push({ type: 'add.selectIgn', ignId: c.eligible[0].id });
      if (addingIdle && c.selectedIgnId !== null && c.role === 'Member') list.push({ type: 'add.selectRole', role: 'Leader' });
      // The default role is added once, at once; the refusals and the retries are played with Leader chosen.
      if (addingIdle && c.selectedIgnId !== null && (c.role === 'Leader' || c.notice === null)) list.push({ type: 'add.submit' });
      if (s.matches({ ready: { adding: 'submitting' } })) {
        const member: TeamMember = { id: 101, osrs_ign: 'Zezima', osrs_ign_id: 11, role: c.role, discord_id: 'd1' };
        list.push({ type: 'xstate.done.actor.addMember', output: { member, message: teamMemberAddedMessage('Zezima', TEAM.name, c.role) } });
        if (c.role === 'Leader') list.push({ type: 'xstate.error.actor.addMember', error: new Error(ADD_FAILED) });
      }
    }
    if (scenario === 'role') {
      // Leader → Member; a failure puts Leader back, so it can be tried again.
      if (roleIdle && addingIdle && woox?.role === 'Leader') list.push({ type: 'roleChange.request', memberId: WOOX.id, role: 'Member' });
      if (s.matches({ ready: { roleChange: 'saving' } }) && c.pendingRole) {
        const member = { ...WOOX, role: c.pendingRole.next };
        list.push(
          { type: 'xstate.done.actor.changeRole', output: { member, message: teamRoleUpdatedMessage(c.pendingRole.next, 'Woox') } },
          { type: 'xstate.error.actor.changeRole', error: new Error(ROLE_FAILED) },
        );
      }
    }
    if (scenario === 'remove' && woox && roleIdle && addingIdle) list.push({ type: 'member.removed', memberId: WOOX.id });
    return list;
  };
}

/** The answers that set a message (the chart raises `message.show`). */
const SETS_MESSAGE = ['xstate.done.actor.addMember', 'xstate.error.actor.addMember', 'xstate.done.actor.changeRole', 'xstate.error.actor.changeRole'];
/**
 * States told apart by value and context, and an answer that sets a message also by the message
 * state before it (hidden, shown, fading), so a new message replacing one shown or fading gets a path.
 */
const serializeState = (s: Snap, event?: ModelEvent, prev?: Snap) =>
  JSON.stringify([s.value, s.context, event && SETS_MESSAGE.includes(event.type) ? (prev?.value as { ready?: { notice?: string } }).ready?.notice : null]);

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  counts: number[];
}

const api = (message: string, status = 409) => new ApiRequestError(message, status);
const manager = () => screen.getByRole('region', { name: `Members of ${TEAM.name}` });
const combobox = () => within(manager()).getByRole('combobox', { name: 'In-game account' }) as HTMLInputElement;

/** What the screen shows in each state node. */
const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  loading: async () => {
    within(manager()).getByText('Loading members...');
  },
  failed: async (s) => {
    await waitFor(() => expect(within(manager()).getByRole('alert').textContent).toBe(s.context.loadError));
    within(manager()).getByRole('button', { name: 'Retry' });
  },
  ready: async (s, w) => {
    const m = manager();
    await waitFor(() => expect(within(m).queryAllByRole('rowheader').map((th) => th.textContent)).toEqual(s.context.members.map((x) => x.osrs_ign)));
    if (s.context.members.length === 0) within(m).getByText('This team currently has no members.');
    // Every member can be removed (the removal is confirmed in its own dialog).
    for (const member of s.context.members) within(m).getByRole('button', { name: `Remove ${member.osrs_ign}` });
    // The team list's 'N Members' follows the manager.
    expect(w.counts.at(-1)).toBe(s.context.members.length);
  },
  // The add row: an in-game account, the new member's role, Add.
  'ready.adding': async (s) => {
    const m = manager();
    combobox();
    expect((within(m).getByLabelText('Role for the new member') as HTMLSelectElement).value).toBe(s.context.role);
    within(m).getByRole('button', { name: /^(Add|Adding\.\.\.)$/ });
  },
  'ready.adding.idle': async (s, w) => {
    const m = manager();
    const add = within(m).getByRole('button', { name: 'Add' });
    expect(add.hasAttribute('disabled')).toBe(s.context.selectedIgnId === null);
    const selected = s.context.eligible.find((e) => e.id === s.context.selectedIgnId);
    expect(combobox().value).toBe(selected?.ign ?? '');
    // The dropdown lists the eligible accounts in order ('No available users found.' when none).
    await w.user.click(combobox());
    // The list floats in a portal on the page, tied to the input by aria-controls.
    const listbox = screen.getByRole('listbox', { name: 'In-game account' });
    expect(combobox().getAttribute('aria-controls')).toBe(listbox.id);
    const options = within(listbox).getAllByRole('option').map((o) => o.textContent);
    const expected = s.context.eligible.map((e) => (e.discord_username ? `${e.ign} (${e.discord_username})` : e.ign));
    expect(options).toEqual(expected.length ? expected : ['No available users found.']);
    await w.user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
  },
  'ready.adding.submitting': async () => {
    const add = within(manager()).getByRole('button', { name: 'Adding...' });
    expect(add.hasAttribute('disabled')).toBe(true);
    expect(combobox().disabled).toBe(true);
    expect((within(manager()).getByLabelText('Role for the new member') as HTMLSelectElement).disabled).toBe(true);
  },
  // The role picker of each member: the optimistic role is shown while the call runs; a failure shows the old one again.
  'ready.roleChange': async (s) => {
    for (const member of s.context.members) expect((within(manager()).getByLabelText(`Role of ${member.osrs_ign}`) as HTMLSelectElement).value).toBe(member.role);
  },
  'ready.roleChange.idle': async (s) => {
    for (const member of s.context.members) expect((within(manager()).getByLabelText(`Role of ${member.osrs_ign}`) as HTMLSelectElement).disabled).toBe(false);
  },
  'ready.roleChange.saving': async (s) => {
    for (const member of s.context.members) expect((within(manager()).getByLabelText(`Role of ${member.osrs_ign}`) as HTMLSelectElement).disabled).toBe(true);
  },
  // The message line shows while the chart holds a message.
  'ready.notice': async (s) => {
    await waitFor(() => expect(within(manager()).queryByTestId('member-notice') !== null).toBe(s.context.notice !== null));
  },
  'ready.notice.hidden': async () => {
    await waitFor(() => expect(within(manager()).queryByTestId('member-notice')).toBeNull());
  },
  'ready.notice.shown': async (s) => {
    const notice = await within(manager()).findByTestId('member-notice');
    expect(notice.textContent).toBe(s.context.notice!.text);
    expect(notice.dataset.tone).toBe(s.context.notice!.tone);
    expect(notice.className).toBe('action-message');
  },
  'ready.notice.fading': async (s) => {
    const notice = within(manager()).getByTestId('member-notice');
    expect(notice.textContent).toBe(s.context.notice!.text);
    expect(notice.className).toBe('action-message action-message--fading');
  },
};

const settle = (w: World, name: string, how: 'resolve' | 'reject', value: unknown) => act(() => (how === 'resolve' ? w.fx.resolve(name, value) : w.fx.reject(name, value)));
const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));

const EXECUTORS = {
  'xstate.done.actor.loadMembers': async (w, { event }) => {
    await settle(w, 'fetchTeamMembers', 'resolve', 'output' in event ? event.output : null);
    expect(w.fx.calls('fetchTeamMembers').at(-1)).toEqual([CLAN_ID, EVENT_ID, TEAM.id]);
  },
  'xstate.error.actor.loadMembers': async (w) => settle(w, 'fetchTeamMembers', 'reject', api(LOAD_FAILED, 500)),
  'members.reload': async (w) => w.user.click(within(manager()).getByRole('button', { name: 'Retry' })),
  'add.selectIgn': async (w, { event }) => {
    if (event.type !== 'add.selectIgn') return;
    await w.user.click(combobox());
    await w.user.type(combobox(), 'zez');
    await w.user.click(within(screen.getByRole('listbox', { name: 'In-game account' })).getByRole('option', { name: /Zezima/ }));
  },
  'add.selectRole': async (w, { event }) => {
    if (event.type === 'add.selectRole') await w.user.selectOptions(within(manager()).getByLabelText('Role for the new member'), event.role);
  },
  'add.submit': async (w) => w.user.click(within(manager()).getByRole('button', { name: 'Add' })),
  'xstate.done.actor.addMember': async (w, { event }) => {
    if (event.type !== 'xstate.done.actor.addMember') return;
    await settle(w, 'addTeamMember', 'resolve', event.output);
    expect(w.fx.calls('addTeamMember').at(-1)).toEqual([CLAN_ID, EVENT_ID, TEAM.id, { osrs_ign_id: 11, role: event.output.member.role }]);
  },
  'xstate.error.actor.addMember': async (w) => settle(w, 'addTeamMember', 'reject', api(ADD_FAILED)),
  'roleChange.request': async (w, { event }) => {
    if (event.type === 'roleChange.request') await w.user.selectOptions(within(manager()).getByLabelText('Role of Woox'), event.role);
  },
  'xstate.done.actor.changeRole': async (w, { event }) => {
    if (event.type !== 'xstate.done.actor.changeRole') return;
    await settle(w, 'updateTeamMemberRole', 'resolve', event.output);
    const [clanId, eventId, teamId, member, role] = w.fx.calls('updateTeamMemberRole').at(-1) as [number, number, number, TeamMember, TeamRole];
    expect([clanId, eventId, teamId, member.id, member.osrs_ign, role]).toEqual([CLAN_ID, EVENT_ID, TEAM.id, WOOX.id, 'Woox', event.output.member.role]);
  },
  'xstate.error.actor.changeRole': async (w) => settle(w, 'updateTeamMemberRole', 'reject', api(ROLE_FAILED, 500)),
  // The removal is confirmed in its own modal (confirmAction); the chart hears the success.
  'member.removed': async (w) => {
    await w.user.click(within(manager()).getByRole('button', { name: 'Remove Woox' }));
    const d = await screen.findByRole('dialog');
    within(d).getByText(TEAM.name);
    await w.user.click(within(d).getByRole('button', { name: 'Remove' }));
    await settle(w, 'removeTeamMember', 'resolve', { ok: true, message: teamMemberRemovedMessage('Woox') });
    expect(w.fx.calls('removeTeamMember').at(-1)).toEqual([CLAN_ID, EVENT_ID, TEAM.id, { id: WOOX.id, osrs_ign: 'Woox' }]);
    await waitFor(() => expect(within(d).getByRole('status').textContent).toBe('Woox removed from team.'));
    await w.user.click(within(d).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  },
  // Raised by the chart itself after it set a message; no person sends it.
  'message.show': async () => {
    throw new Error('message.show is raised by the chart, never sent from outside');
  },
  [FADE]: async () => advance(4000),
  [CLEAR]: async () => advance(1000),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

modelTests<Snap, ModelEvent, World>({
  name: 'teamMembers',
  machine: teamMembersMachine,
  inputs: (['add', 'role', 'remove'] as const).map((scenario): ScenarioInput => ({ scenario })),
  events: (s, input) => eventsFor((input as ScenarioInput).scenario)(s),
  serialize: serializeState,
  // A path that a longer one starts with takes the same steps and asserts the same states.
  dropPrefixPaths: true,
  executors: EXECUTORS,
  notDriven: ['message.show'],
  assertions: ASSERTIONS,
  fakeTimers: true,
  label: (e) => e.type.replace('xstate.', '').replace('.actor', '').replace(/\.teamMembers\..*$/, ''),
  render: () => {
    const fx = new FakeEffects();
    const counts: number[] = [];
    const unused = () => Promise.reject(new Error('not used here'));
    const effects: TeamsEffects = {
      fetchTeams: unused,
      createTeam: unused,
      updateTeam: unused,
      deleteTeam: unused,
      fetchTeamMembers: fx.fn('fetchTeamMembers'),
      addTeamMember: fx.fn('addTeamMember'),
      updateTeamMemberRole: fx.fn('updateTeamMemberRole'),
      removeTeamMember: fx.fn('removeTeamMember'),
    };
    render(<TeamMemberManager clanId={CLAN_ID} eventId={EVENT_ID} team={TEAM} effects={effects} onCountChanged={(n) => counts.push(n)} />);
    return { fx, counts, user: userEvent.setup({ delay: null, advanceTimers: vi.advanceTimersByTime }) };
  },
  // The spec behaviours: revert on failure, the IGN leaving and coming back sorted by name.
  guards: (paths) => {
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    // A failed role change shows the old role with the failure message.
    expect(states.some((s) => s.context.notice?.text === ROLE_FAILED && s.context.members.find((m) => m.id === WOOX.id)?.role === 'Leader')).toBe(true);
    expect(states.some((s) => s.context.notice?.text === teamRoleUpdatedMessage('Member', 'Woox'))).toBe(true);
    expect(states.some((s) => s.context.notice?.text === teamMemberAddedMessage('Zezima', TEAM.name, 'Leader') && s.context.eligible.length === 0)).toBe(true);
    expect(states.some((s) => s.context.eligible.map((e) => e.ign).join() === 'Woox,Zezima')).toBe(true);
  },
});
