import { assign, raise, setup } from 'xstate';
import type { ClanRole } from '../contract/user';
import { checkKick, ladderStep } from '../contract/clan';
import {
  failureText,
  refusalText,
  roleChangeVerdict,
  successText,
  verbOf,
  type ActionMessage,
  type RoleActionKind,
  type RoleIntent,
  type RoleRequest,
} from '../contract/clanRoleText';
import { BANNER_DELAYS, fadingMessageStates } from './banner.machine';
import { missingPromise } from './shared';

export type {  RoleActionKind, RoleRequest, RoleTarget, RoleViewer } from '../contract/clanRoleText';

export interface ClanRoleContext {
  clanId: number;
  request: RoleRequest | null;
  message: ActionMessage | null;
}

export type ClanRoleEvent =
  | RoleIntent
  | { type: 'roleAction.confirm' }
  | { type: 'roleAction.cancel' }
  /** Internal: raised whenever a new action message is set, so the fade timers restart. */
  | { type: 'message.show' };

type MemberEvent = Extract<RoleIntent, { member: unknown }>;
type ViewerEvent = RoleIntent;

/** Input of `changeMemberRole`: the new role is one ladder step from the current one. */
export interface RoleChangeInput {
  clanId: number;
  memberId: number;
  role: ClanRole;
  verb: 'promote' | 'demote';
}

/** Milliseconds of the named delays (docs/client.md §12); the message delays are the banner's. */
export const CLAN_ROLE_DELAYS = {
  /** Leave and disband wait this long after the success message before the call. */
  announceWait: 500,
  ...BANNER_DELAYS,
} as const;

/** A refused request: its message shows, nothing else happens (written once for the five intents). */
const refuse = {
  actions: [{ type: 'showRefusal', params: ({ event }: { event: ViewerEvent }) => event }, 'clearRequest', 'announce'],
} as const;

/** An allowed request about a member: its guard, the state it goes to, and the request kept for that state and the messages. */
const allowMember = <const TGuard extends string, const TTarget extends string>(guard: TGuard, target: TTarget, kind: RoleActionKind) => ({
  guard: { type: guard, params: ({ event }: { event: MemberEvent }) => event },
  target,
  actions: { type: 'assignRequest' as const, params: ({ event }: { event: MemberEvent }) => ({ kind, event }) },
});

/** The same for a request about the viewer's own membership (leave, disband). */
const allowViewer = <const TGuard extends string, const TTarget extends string>(guard: TGuard, target: TTarget, kind: RoleActionKind) => ({
  guard: { type: guard, params: ({ event }: { event: ViewerEvent }) => event },
  target,
  actions: { type: 'assignRequest' as const, params: ({ event }: { event: ViewerEvent }) => ({ kind, event }) },
});

/**
 * Leave and disband: the success message shows first (`announcing`), the call `invoke` runs
 * `announceWait` later (`calling`).
 */
const departing = <const TInvoke>(invoke: TInvoke) =>
  ({
    tags: ['pending'],
    initial: 'announcing',
    states: {
      announcing: { entry: ['showSuccess', 'announce'], after: { announceWait: 'calling' } },
      calling: { invoke },
    },
  }) as const;

/** The error of a failed call, for `showFailure`. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/** A confirmation step: confirm goes on to `target`, cancel back to idle. */
const confirmThen = <const TTarget extends string>(target: TTarget) => ({
  tags: ['confirming'],
  on: { 'roleAction.confirm': target, 'roleAction.cancel': { target: 'idle', actions: 'clearRequest' } },
}) as const;

/**
 * The clan role chart (docs/client.md §5, §11, §12; docs/game-rules.md §11): promote,
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
 * - Region `message`: the banner chart's fading-message states (`fadingMessageStates`): a new
 *   message shows, fades after `messageFade` (4 s) and is cleared `messageRemove` (1 s) later.
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
    changeMemberRole: missingPromise<unknown, RoleChangeInput>('clanRole', 'changeMemberRole'),
    kickMember: missingPromise<unknown, { clanId: number; memberId: number }>('clanRole', 'kickMember'),
    leaveClan: missingPromise<unknown, { clanId: number; userId: number }>('clanRole', 'leaveClan'),
    disbandClan: missingPromise<unknown, { clanId: number }>('clanRole', 'disbandClan'),
  },
  delays: {
    announceWait: CLAN_ROLE_DELAYS.announceWait,
    messageFade: CLAN_ROLE_DELAYS.messageFade,
    messageRemove: CLAN_ROLE_DELAYS.messageRemove,
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
              { guard: { type: 'isAtLadderTop', params: ({ event }) => event }, ...refuse },
              allowMember('canTransferOwnership', 'confirmingTransfer', 'transfer'),
              allowMember('canPromote', 'changingRole', 'promote'),
              refuse,
            ],
            'member.demote': [
              { guard: { type: 'isAtLadderBottom', params: ({ event }) => event }, ...refuse },
              allowMember('canDemote', 'changingRole', 'demote'),
              refuse,
            ],
            'member.kick': [allowMember('canKick', 'confirmingKick', 'kick'), refuse],
            'clan.leave': [allowViewer('canLeave', 'confirmingLeave', 'leave'), refuse],
            'clan.disband': [allowViewer('isOwner', 'confirmingDisband', 'disband'), refuse],
          },
        },
        confirmingTransfer: confirmThen('changingRole'),
        confirmingKick: confirmThen('kicking'),
        confirmingLeave: confirmThen('leaving'),
        confirmingDisband: confirmThen('disbanding'),
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
            onError: { target: 'idle', actions: [{ type: 'showFailure', params: errorOf }, 'announce'] },
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
            onError: { target: 'idle', actions: [{ type: 'showFailure', params: errorOf }, 'announce'] },
          },
        },
        leaving: departing({
          id: 'leaveClan',
          src: 'leaveClan',
          input: ({ context }: { context: ClanRoleContext }) => ({ clanId: context.clanId, userId: context.request?.viewer.userId ?? 0 }),
          onDone: '#clanRole.flow.departed',
          onError: { target: '#clanRole.flow.idle', actions: [{ type: 'showFailure', params: errorOf }, 'announce', 'reloadClan'] },
        }),
        disbanding: departing({
          id: 'disbandClan',
          src: 'disbandClan',
          input: ({ context }: { context: ClanRoleContext }) => ({ clanId: context.clanId }),
          onDone: '#clanRole.flow.departed',
          onError: { target: '#clanRole.flow.idle', actions: [{ type: 'showFailure', params: errorOf }, 'announce'] },
        }),
        /** Left or disbanded: the user is refreshed and sent to /profile. */
        departed: {
          tags: ['pending'],
          entry: ['refreshUser', 'goToProfile'],
        },
      },
    },
    message: { initial: 'hidden', states: fadingMessageStates([]) },
  },
});
