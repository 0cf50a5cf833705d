import { assign, fromPromise, raise, setup } from 'xstate';
import type { ClanRole } from '../contract/user';
import { checkKick, checkLeave, checkRoleChange, ladderStep, SOLE_MANAGER_HINT, PERMISSION_DENIED } from '../contract/clan';

/** The member an action targets (a row of the member list). */
export interface RoleTarget {
  member_id: number;
  username: string;
  role: ClanRole;
}

/** Who acts, as the clan page knows it when the action is requested. */
export interface RoleViewer {
  userId: number;
  role: ClanRole;
  /** Owners and Admins of the clan, the viewer included. */
  managerCount: number;
  clanName: string;
}

/** The kinds of action of this chart (product-spec sections 4 Clan roles, 5 Clan members). */
export type RoleActionKind = 'promote' | 'demote' | 'transfer' | 'kick' | 'leave' | 'disband';

/** The action being confirmed or run. `member` and `newRole` are absent for leave and disband. */
export interface RoleRequest {
  kind: RoleActionKind;
  viewer: RoleViewer;
  member: RoleTarget | null;
  newRole: ClanRole | null;
}

/** An action message of the clan screen; it fades at 4 s and is removed at 5 s (section 9). */
export interface ActionMessage {
  text: string;
  tone: 'success' | 'error';
}

export interface ClanRoleContext {
  clanId: number;
  request: RoleRequest | null;
  message: ActionMessage | null;
}

export type ClanRoleEvent =
  | { type: 'member.promote'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'member.demote'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'member.kick'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'clan.leave'; viewer: RoleViewer }
  | { type: 'clan.disband'; viewer: RoleViewer }
  | { type: 'roleAction.confirm' }
  | { type: 'roleAction.cancel' }
  /** Internal: raised whenever a new action message is set, so the fade timers restart. */
  | { type: 'message.show' };

type MemberEvent = Extract<ClanRoleEvent, { member: RoleTarget }>;
type ViewerEvent = Extract<ClanRoleEvent, { viewer: RoleViewer }>;

/** Input of `changeMemberRole`: the new role is one ladder step from the current one. */
export interface RoleChangeInput {
  clanId: number;
  memberId: number;
  role: ClanRole;
  verb: 'promote' | 'demote';
}

/** Success texts (product-spec section 8); leave and disband texts are this app's own. */
export const roleMessages = {
  roleChanged: (name: string, verb: 'promote' | 'demote', role: ClanRole) => `${name} successfully ${verb}d to ${role}.`,
  kicked: (name: string) => `${name} was successfully kicked.`,
  left: (clanName: string) => `You have successfully left ${clanName}.`,
  disbanded: (clanName: string) => `Clan ${clanName} has been successfully disbanded.`,
  cannotPromote: (name: string) => `Cannot promote ${name} further than Owner.`,
  cannotDemote: (name: string) => `Cannot demote ${name} further than Guest.`,
  roleChangeFailed: (verb: 'promote' | 'demote') => `Failed to ${verb} member. Please check hierarchy rules.`,
  kickFailed: 'Failed to kick member. Please check permissions.',
  leaveFailed: 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.',
  disbandFailed: 'Failed to disband clan. Please retry.',
  ownerOnly: 'Permission denied. Only the clan Owner can disband the clan.',
} as const;

/** Milliseconds of the named delays (product-spec section 9). */
export const CLAN_ROLE_DELAYS = {
  /** Leave and disband wait this long after the success message before the call. */
  announceWait: 500,
  /** An action message starts fading this long after it appears. */
  messageFade: 4000,
  /** ... and is removed this long after it started fading (5 s after it appeared). */
  messageClear: 1000,
} as const;

const verbOf = (kind: RoleActionKind): 'promote' | 'demote' => (kind === 'demote' ? 'demote' : 'promote');

/** The role-change verdict of contract/clan.ts for a one-step promote or demote request. */
function roleChangeVerdict(e: MemberEvent, direction: 1 | -1) {
  return checkRoleChange({
    actorRole: e.viewer.role,
    targetRole: e.member.role,
    newRole: ladderStep(e.member.role, direction) ?? e.member.role,
    targetName: e.member.username,
    self: e.member.member_id === e.viewer.userId,
  });
}

/** Text of a refused request (guards failed), in the order the guards are tried. */
export function refusalText(e: ViewerEvent): string {
  switch (e.type) {
    case 'member.promote': {
      if (e.member.role === 'Owner') return roleMessages.cannotPromote(e.member.username);
      const v = roleChangeVerdict(e, 1);
      return v.ok ? '' : v.error;
    }
    case 'member.demote': {
      if (e.member.role === 'Guest') return roleMessages.cannotDemote(e.member.username);
      const v = roleChangeVerdict(e, -1);
      return v.ok ? '' : v.error;
    }
    case 'member.kick': {
      if (e.member.member_id === e.viewer.userId) return 'Use Leave Clan to leave the clan yourself.';
      const v = checkKick(e.viewer.role, e.member.role);
      return v.ok ? '' : v.error;
    }
    case 'clan.leave': {
      if ((e.viewer.role === 'Owner' || e.viewer.role === 'Admin') && e.viewer.managerCount <= 1) return SOLE_MANAGER_HINT;
      const v = checkLeave(e.viewer.role, e.viewer.managerCount);
      return v.ok ? '' : v.error;
    }
    case 'clan.disband':
      return e.viewer.role === 'Owner' ? '' : PERMISSION_DENIED;
  }
}

/** The message of a failed call: the server's text, or the section 8 fallback. */
function failureText(request: RoleRequest | null, error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  switch (request?.kind) {
    case 'kick':
      return roleMessages.kickFailed;
    case 'leave':
      return roleMessages.leaveFailed;
    case 'disband':
      return roleMessages.disbandFailed;
    default:
      return roleMessages.roleChangeFailed(verbOf(request?.kind ?? 'promote'));
  }
}

/** The success text of a finished request. */
function successText(r: RoleRequest): string {
  switch (r.kind) {
    case 'kick':
      return roleMessages.kicked(r.member?.username ?? '');
    case 'leave':
      return roleMessages.left(r.viewer.clanName);
    case 'disband':
      return roleMessages.disbanded(r.viewer.clanName);
    default:
      return roleMessages.roleChanged(r.member?.username ?? '', verbOf(r.kind), r.newRole ?? r.member?.role ?? 'Guest');
  }
}

const missing = (name: string) =>
  fromPromise<never, any>(async () => {
    throw new Error(`clanRole machine: actor '${name}' was not provided`);
  });

/**
 * The clan role chart (product-spec sections 4 "Clan roles", 5 "Clan members", 6, 8, 9): promote,
 * demote, kick, transfer ownership, leave and disband, on the clan management screen.
 *
 * - Requests carry the target row and the viewer (role, manager count, clan name); guards refuse
 *   beyond the ladder ends ('Cannot promote {name} further than Owner.' / 'Cannot demote {name}
 *   further than Guest.'), Owner-only actions (transfer, kicking an Admin, disband), and a sole
 *   manager's leave (SOLE_MANAGER_HINT); a refusal only shows a message.
 * - Transfer ownership, kick, leave and disband are confirmed first (cancel returns to idle);
 *   promote and demote run at once. Leave and disband show their success message, wait
 *   `announceWait` (500 ms), then call; on success the user is refreshed and sent to /profile.
 *   A failed leave shows the error and reloads the clan; a transfer refreshes the current user.
 * - States tagged `pending` are a running action (the screen disables its tabs); `confirming`
 *   states have the confirmation dialog open.
 * - Region `message`: a new message shows, fades after `messageFade` (4 s) and is cleared
 *   `messageClear` (1 s) later.
 * Effects provided from src/: actors changeMemberRole, kickMember, leaveClan, disbandClan;
 * actions refreshUser, goToProfile, reloadClan, removeMember (drops a kicked row locally).
 */
export const clanRoleMachine = setup({
  types: {
    context: {} as ClanRoleContext,
    events: {} as ClanRoleEvent,
    input: {} as { clanId: number },
  },
  actors: {
    changeMemberRole: missing('changeMemberRole') as ReturnType<typeof fromPromise<unknown, RoleChangeInput>>,
    kickMember: missing('kickMember') as ReturnType<typeof fromPromise<unknown, { clanId: number; memberId: number }>>,
    leaveClan: missing('leaveClan') as ReturnType<typeof fromPromise<unknown, { clanId: number; userId: number }>>,
    disbandClan: missing('disbandClan') as ReturnType<typeof fromPromise<unknown, { clanId: number }>>,
  },
  delays: {
    announceWait: CLAN_ROLE_DELAYS.announceWait,
    messageFade: CLAN_ROLE_DELAYS.messageFade,
    messageClear: CLAN_ROLE_DELAYS.messageClear,
  },
  guards: {
    isAtLadderTop: (_, e: MemberEvent) => e.member.role === 'Owner',
    isAtLadderBottom: (_, e: MemberEvent) => e.member.role === 'Guest',
    canPromote: (_, e: MemberEvent) => roleChangeVerdict(e, 1).ok,
    canDemote: (_, e: MemberEvent) => roleChangeVerdict(e, -1).ok,
    /** Promoting an Admin is the ownership transfer (Owner only, checked by canPromote's rules). */
    canTransferOwnership: (_, e: MemberEvent) => e.member.role === 'Admin' && roleChangeVerdict(e, 1).ok,
    canKick: (_, e: MemberEvent) => e.member.member_id !== e.viewer.userId && checkKick(e.viewer.role, e.member.role).ok,
    canLeave: (_, e: ViewerEvent) => refusalText(e) === '',
    isOwner: (_, e: ViewerEvent) => e.viewer.role === 'Owner',
    wasOwnershipTransfer: ({ context }) => context.request?.kind === 'transfer',
  },
  actions: {
    assignRequest: assign((_, p: { kind: RoleActionKind; event: ViewerEvent }) => {
      const member = 'member' in p.event ? p.event.member : null;
      const newRole =
        member && (p.kind === 'promote' || p.kind === 'transfer' || p.kind === 'demote')
          ? ladderStep(member.role, p.kind === 'demote' ? -1 : 1)
          : null;
      return { request: { kind: p.kind, viewer: p.event.viewer, member, newRole } };
    }),
    clearRequest: assign({ request: null }),
    showRefusal: assign((_, e: ViewerEvent) => ({ message: { text: refusalText(e), tone: 'error' as const } })),
    showSuccess: assign(({ context }) => ({
      message: context.request ? { text: successText(context.request), tone: 'success' as const } : context.message,
    })),
    showFailure: assign(({ context }, error: unknown) => ({ message: { text: failureText(context.request, error), tone: 'error' as const } })),
    /** Restarts the fade timers of the message region after a new message was set. */
    announce: raise({ type: 'message.show' as const }),
    clearMessage: assign({ message: null }),
    refreshUser: () => {},
    goToProfile: () => {},
    reloadClan: () => {},
    removeMember: (_, _memberId: number) => {},
  },
}).createMachine({
  id: 'clanRole',
  context: ({ input }) => ({ clanId: input.clanId, request: null, message: null }),
  type: 'parallel',
  states: {
    flow: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'member.promote': [
              { guard: { type: 'isAtLadderTop', params: ({ event }) => event }, actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
              {
                guard: { type: 'canTransferOwnership', params: ({ event }) => event },
                target: 'confirmingTransfer',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'transfer' as const, event }) },
              },
              {
                guard: { type: 'canPromote', params: ({ event }) => event },
                target: 'changingRole',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'promote' as const, event }) },
              },
              { actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
            ],
            'member.demote': [
              { guard: { type: 'isAtLadderBottom', params: ({ event }) => event }, actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
              {
                guard: { type: 'canDemote', params: ({ event }) => event },
                target: 'changingRole',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'demote' as const, event }) },
              },
              { actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
            ],
            'member.kick': [
              {
                guard: { type: 'canKick', params: ({ event }) => event },
                target: 'confirmingKick',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'kick' as const, event }) },
              },
              { actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
            ],
            'clan.leave': [
              {
                guard: { type: 'canLeave', params: ({ event }) => event },
                target: 'confirmingLeave',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'leave' as const, event }) },
              },
              { actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
            ],
            'clan.disband': [
              {
                guard: { type: 'isOwner', params: ({ event }) => event },
                target: 'confirmingDisband',
                actions: { type: 'assignRequest', params: ({ event }) => ({ kind: 'disband' as const, event }) },
              },
              { actions: [{ type: 'showRefusal', params: ({ event }) => event }, 'clearRequest', 'announce'] },
            ],
          },
        },
        confirmingTransfer: {
          tags: ['confirming'],
          on: { 'roleAction.confirm': 'changingRole', 'roleAction.cancel': { target: 'idle', actions: 'clearRequest' } },
        },
        confirmingKick: {
          tags: ['confirming'],
          on: { 'roleAction.confirm': 'kicking', 'roleAction.cancel': { target: 'idle', actions: 'clearRequest' } },
        },
        confirmingLeave: {
          tags: ['confirming'],
          on: { 'roleAction.confirm': 'leaving', 'roleAction.cancel': { target: 'idle', actions: 'clearRequest' } },
        },
        confirmingDisband: {
          tags: ['confirming'],
          on: { 'roleAction.confirm': 'disbanding', 'roleAction.cancel': { target: 'idle', actions: 'clearRequest' } },
        },
        changingRole: {
          tags: ['pending'],
          invoke: {
            id: 'changeMemberRole',
            src: 'changeMemberRole',
            input: ({ context }) => ({
              clanId: context.clanId,
              memberId: context.request?.member?.member_id ?? 0,
              role: context.request?.newRole ?? 'Guest',
              verb: verbOf(context.request?.kind ?? 'promote'),
            }),
            onDone: [
              { guard: 'wasOwnershipTransfer', target: 'idle', actions: ['showSuccess', 'announce', 'refreshUser', 'reloadClan'] },
              { target: 'idle', actions: ['showSuccess', 'announce', 'reloadClan'] },
            ],
            onError: { target: 'idle', actions: [{ type: 'showFailure', params: ({ event }: { event: { error: unknown } }) => event.error }, 'announce'] },
          },
        },
        kicking: {
          tags: ['pending'],
          invoke: {
            id: 'kickMember',
            src: 'kickMember',
            input: ({ context }) => ({ clanId: context.clanId, memberId: context.request?.member?.member_id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: ['showSuccess', 'announce', { type: 'removeMember', params: ({ context }) => context.request?.member?.member_id ?? 0 }],
            },
            onError: { target: 'idle', actions: [{ type: 'showFailure', params: ({ event }: { event: { error: unknown } }) => event.error }, 'announce'] },
          },
        },
        leaving: {
          tags: ['pending'],
          initial: 'announcing',
          states: {
            announcing: {
              entry: ['showSuccess', 'announce'],
              after: { announceWait: 'calling' },
            },
            calling: {
              invoke: {
                id: 'leaveClan',
                src: 'leaveClan',
                input: ({ context }) => ({ clanId: context.clanId, userId: context.request?.viewer.userId ?? 0 }),
                onDone: '#clanRole.flow.departed',
                onError: {
                  target: '#clanRole.flow.idle',
                  actions: [{ type: 'showFailure', params: ({ event }: { event: { error: unknown } }) => event.error }, 'announce', 'reloadClan'],
                },
              },
            },
          },
        },
        disbanding: {
          tags: ['pending'],
          initial: 'announcing',
          states: {
            announcing: {
              entry: ['showSuccess', 'announce'],
              after: { announceWait: 'calling' },
            },
            calling: {
              invoke: {
                id: 'disbandClan',
                src: 'disbandClan',
                input: ({ context }) => ({ clanId: context.clanId }),
                onDone: '#clanRole.flow.departed',
                onError: { target: '#clanRole.flow.idle', actions: [{ type: 'showFailure', params: ({ event }: { event: { error: unknown } }) => event.error }, 'announce'] },
              },
            },
          },
        },
        /** Left or disbanded: the user is refreshed and sent to /profile. */
        departed: {
          tags: ['pending'],
          entry: ['refreshUser', 'goToProfile'],
        },
      },
    },
    message: {
      initial: 'hidden',
      states: {
        hidden: {
          on: { 'message.show': 'shown' },
        },
        shown: {
          after: { messageFade: 'fading' },
          on: { 'message.show': { target: 'shown', reenter: true } },
        },
        fading: {
          after: { messageClear: { target: 'hidden', actions: 'clearMessage' } },
          on: { 'message.show': 'shown' },
        },
      },
    },
  },
});
