import { assign, raise, setup } from 'xstate';
import { BANNER_DELAYS, fadingMessageStates } from './banner.machine';
import { missingPromise } from './shared';
import type { TeamMember, TeamMembersAnswer, TeamRole } from '../contract/team';
import { flattenEligible, withIgnReturned, withoutIgn, type EligibleIgn } from '../contract/eligibleIgns';
import { errorText } from '../contract/errorText';

export type { EligibleIgn } from '../contract/eligibleIgns';

/** A message line of the member manager. */
export interface MemberNotice {
  tone: 'success' | 'error';
  text: string;
}

export interface TeamMembersContext {
  members: TeamMember[];
  /** In-game accounts on no team of the event, sorted by name (docs/client.md §6). */
  eligible: EligibleIgn[];
  /** Chat-platform names by discord_id, to label an IGN that comes back to the list. */
  usernames: Record<string, string>;
  selectedIgnId: number | null;
  role: TeamRole;
  /** The role change in flight: which member and the role to put back if it fails. */
  pendingRole: { memberId: number; previous: TeamRole; next: TeamRole } | null;
  notice: MemberNotice | null;
  loadError: string | null;
}

export type TeamMembersEvent =
  | { type: 'members.reload' }
  | { type: 'add.selectIgn'; ignId: number | null }
  | { type: 'add.selectRole'; role: TeamRole }
  | { type: 'add.submit' }
  | { type: 'roleChange.request'; memberId: number; role: TeamRole }
  | { type: 'member.removed'; memberId: number }
  /** Raised by the chart itself after it set a message (restarts the fade). */
  | { type: 'message.show' };

/** Input of `addMember`: the body of POST .../members. */
export interface AddMemberInput {
  osrs_ign_id: number;
  role: TeamRole;
}
/** Input of `changeRole`: the member (id and IGN for the messages) and the new role. */
export interface ChangeRoleInput {
  member: TeamMember;
  role: TeamRole;
}
/** What `addMember` and `changeRole` answer: the member as saved and the success message. */
export interface MemberAnswer {
  member: TeamMember;
  message: string;
}

/**
 * The inline member manager of one team (docs/client.md §6,
 * §11): loads the team members and the eligible in-game accounts; adds a member
 * (the account leaves the eligible list); changes a role optimistically and puts the old role back
 * when the call fails; takes a removal confirmed elsewhere (`member.removed`: the account returns
 * to the eligible list, sorted by name). Region `notice`: the banner chart's fading-message states
 * (`fadingMessageStates`: fade at 4 s, cleared at 5 s). Effects: the
 * actors loadMembers, addMember, changeRole; `notifyCount` tells the team list the new size.
 */
export const teamMembersMachine = setup({
  types: {
    context: {} as TeamMembersContext,
    events: {} as TeamMembersEvent,
  },
  actors: {
    loadMembers: missingPromise<TeamMembersAnswer, void>('teamMembers', 'loadMembers'),
    addMember: missingPromise<MemberAnswer, AddMemberInput>('teamMembers', 'addMember'),
    changeRole: missingPromise<MemberAnswer, ChangeRoleInput>('teamMembers', 'changeRole'),
  },
  delays: {
    messageFade: BANNER_DELAYS.messageFade,
    messageRemove: BANNER_DELAYS.messageRemove,
  },
  guards: {
    hasIgn: ({ context }) => context.selectedIgnId !== null && context.eligible.some((e) => e.id === context.selectedIgnId),
    roleDiffers: ({ context }, e: { memberId: number; role: TeamRole }) =>
      context.members.some((m) => m.id === e.memberId && m.role !== e.role),
  },
  actions: {
    assignLoaded: assign((_, answer: TeamMembersAnswer) => ({
      members: answer.team_members,
      eligible: flattenEligible(answer.eligible_members),
      // A discord_id the viewer may not see is null (docs/server.md §18): no label by it.
      usernames: Object.fromEntries(answer.eligible_members.flatMap((m) => (m.discord_id === null ? [] : [[m.discord_id, m.discord_username]]))),
      loadError: null,
      selectedIgnId: null,
    })),
    assignLoadError: assign((_, error: unknown) => ({ loadError: errorText(error, 'Failed to fetch team members and available list.') })),
    assignSelectedIgn: assign((_, ignId: number | null) => ({ selectedIgnId: ignId })),
    assignRole: assign((_, role: TeamRole) => ({ role })),
    takeAddedMember: assign(({ context }, answer: MemberAnswer) => ({
      members: [...context.members, answer.member],
      eligible: withoutIgn(context.eligible, answer.member.osrs_ign_id),
      selectedIgnId: null,
      role: 'Member' as TeamRole,
    })),
    applyRoleOptimistically: assign(({ context }, e: { memberId: number; role: TeamRole }) => {
      const member = context.members.find((m) => m.id === e.memberId);
      return {
        members: context.members.map((m) => (m.id === e.memberId ? { ...m, role: e.role } : m)),
        pendingRole: member ? { memberId: e.memberId, previous: member.role, next: e.role } : null,
      };
    }),
    revertRole: assign(({ context }) => {
      const p = context.pendingRole;
      return {
        members: p ? context.members.map((m) => (m.id === p.memberId ? { ...m, role: p.previous } : m)) : context.members,
        pendingRole: null,
      };
    }),
    clearPendingRole: assign({ pendingRole: null }),
    dropRemovedMember: assign(({ context }, memberId: number) => {
      const member = context.members.find((m) => m.id === memberId);
      if (!member) return {};
      return {
        members: context.members.filter((m) => m.id !== memberId),
        eligible: withIgnReturned(context.eligible, member, context.usernames),
      };
    }),
    assignSuccess: assign((_, text: string) => ({ notice: { tone: 'success', text } as MemberNotice })),
    assignFailure: assign((_, e: { error: unknown; fallback: string }) => ({
      notice: { tone: 'error', text: errorText(e.error, e.fallback) } as MemberNotice,
    })),
    showNotice: raise({ type: 'message.show' }),
    clearMessage: assign({ notice: null }),
    notifyCount: () => {},
  },
}).createMachine({
  id: 'teamMembers',
  context: { members: [], eligible: [], usernames: {}, selectedIgnId: null, role: 'Member', pendingRole: null, notice: null, loadError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadMembers',
        src: 'loadMembers',
        onDone: { target: 'ready', actions: [{ type: 'assignLoaded', params: ({ event }) => event.output }, 'notifyCount'] },
        onError: { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: { 'members.reload': 'loading' },
    },
    ready: {
      type: 'parallel',
      on: {
        'member.removed': { actions: [{ type: 'dropRemovedMember', params: ({ event }) => event.memberId }, 'notifyCount'] },
      },
      states: {
        adding: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'add.selectIgn': { actions: { type: 'assignSelectedIgn', params: ({ event }) => event.ignId } },
                'add.selectRole': { actions: { type: 'assignRole', params: ({ event }) => event.role } },
                'add.submit': { guard: 'hasIgn', target: 'submitting' },
              },
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'addMember',
                src: 'addMember',
                input: ({ context }) => ({ osrs_ign_id: context.selectedIgnId as number, role: context.role }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'takeAddedMember', params: ({ event }) => event.output },
                    { type: 'assignSuccess', params: ({ event }) => event.output.message },
                    'showNotice',
                    'notifyCount',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    { type: 'assignFailure', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback: 'Failed to add member.' }) },
                    'showNotice',
                  ],
                },
              },
            },
          },
        },
        roleChange: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'roleChange.request': {
                  guard: { type: 'roleDiffers', params: ({ event }) => event },
                  target: 'saving',
                  actions: { type: 'applyRoleOptimistically', params: ({ event }) => event },
                },
              },
            },
            saving: {
              tags: ['roleSaving'],
              invoke: {
                id: 'changeRole',
                src: 'changeRole',
                input: ({ context }) => {
                  const p = context.pendingRole!;
                  const member = context.members.find((m) => m.id === p.memberId)!;
                  return { member: { ...member, role: p.previous }, role: p.next };
                },
                onDone: {
                  target: 'idle',
                  actions: ['clearPendingRole', { type: 'assignSuccess', params: ({ event }) => event.output.message }, 'showNotice'],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    { type: 'assignFailure', params: ({ context, event }: { context: TeamMembersContext; event: { error: unknown } }) => ({
                      error: event.error,
                      fallback: `Failed to update role for ${context.members.find((m) => m.id === context.pendingRole?.memberId)?.osrs_ign ?? 'member'}.`,
                    }) },
                    'revertRole',
                    'showNotice',
                  ],
                },
              },
            },
          },
        },
        notice: { initial: 'hidden', states: fadingMessageStates([]) },
      },
    },
  },
});
