import { assign, setup } from 'xstate';
import { listLoad, type ListContext } from './listLoader';
import { missingPromise } from './shared';
import type { BalanceAnswer, ListedSignup, WomProgress } from '../contract/signupApi';
import { errorText } from '../contract/errorText';

/** While a Wise Old Man fetch runs, its progress is read again this often (ms). */
export const WOM_POLL_MS = 5000;

/** A balancing proposal as the server answers it. */
type Proposal = BalanceAnswer['proposal'];

/** What applying a proposal answers. */
interface Applied {
  created_team_ids: number[];
  placed_count: number;
}

/** The texts the chart sets after an action (docs/client.md §13). */
export const SIGNUPS_TEXTS = {
  applied: (a: Applied) => `Teams applied: ${a.placed_count} ${a.placed_count === 1 ? 'sign-up' : 'sign-ups'} placed, ${a.created_team_ids.length} new ${a.created_team_ids.length === 1 ? 'team' : 'teams'}.`,
  actionFailed: 'Something went wrong. Please retry.',
  loadFailed: 'Failed to fetch sign-ups.',
} as const;

/** The sign-up list (`items`, the load failure `error`) and what the view adds to it. */
export interface SignupsContext extends ListContext<ListedSignup> {
  /** How many teams the last 'Balance Teams' asked for (0: the event's existing teams). */
  teamCount: number;
  /** The proposal shown before anything changes, or null. */
  proposal: Proposal | null;
  /** The last Wise Old Man progress read, or null. */
  wom: WomProgress | null;
  /** The last action's outcome: a success text or the server's error. */
  message: { tone: 'success' | 'error'; text: string } | null;
}

/** Reload, Balance Teams, a Leader chosen for a proposed team (by its index), Apply, Cancel and Check Progress. */
export type SignupsEvent =
  | { type: 'signups.reload' }
  | { type: 'balance.request'; teamCount: number }
  | { type: 'balance.leader'; team: number; signupId: number | null }
  | { type: 'balance.apply' }
  | { type: 'balance.cancel' }
  | { type: 'wom.check' };

/** The list's load step: the sign-ups of the event, oldest first. */
const signupList = listLoad<ListedSignup, SignupsContext, 'loadSignups'>({ id: 'signups', actor: 'loadSignups', fallback: SIGNUPS_TEXTS.loadFailed });

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/**
 * The Sign-ups view of an event (docs/client.md §13; docs/server.md §16): the sign-up list
 * (list-loader load step: `loading` → `loaded` or `failed`, `signups.reload` loads again after a
 * sign-up, withdrawal, score or import made through the confirm dialogs); for managers 'Balance
 * Teams' (`balance.request`) asks for a proposal (`proposing`) shown in `proposed` with each
 * team's total and the spread before anything changes, where `balance.leader` sets a team's Leader
 * to one of its own members (a team balanced without anyone who would lead has none; the server
 * takes the choice); `balance.apply` applies it (`applying`,
 * then the list loads again) and `balance.cancel` drops it; `wom.check` (Check Progress, or a
 * fetch just started) reads the Wise Old Man progress (`checkingWom`) and loads the list again so
 * fetched scores show; while that fetch is unfinished it is read again after `womPoll` (5 s).
 * A refused action returns with the server's error.
 */
export const signupsMachine = setup({
  types: {
    context: {} as SignupsContext,
    events: {} as SignupsEvent,
  },
  actors: {
    ...signupList.actors,
    proposeTeams: missingPromise<Proposal, { teamCount: number }>('signups', 'proposeTeams'),
    applyProposal: missingPromise<Applied, { proposal: Proposal }>('signups', 'applyProposal'),
    loadWomProgress: missingPromise<WomProgress>('signups', 'loadWomProgress'),
  },
  delays: { womPoll: WOM_POLL_MS },
  guards: {
    womRunning: ({ context }) => context.wom !== null && context.wom.done < context.wom.total,
  },
  actions: {
    assignItems: assign(({ context }, items: ListedSignup[]) => signupList.loaded(context, items)),
    assignError: assign((_, error: unknown) => signupList.failed(error)),
    assignTeamCount: assign((_, teamCount: number) => ({ teamCount, message: null })),
    assignProposal: assign((_, proposal: Proposal) => ({ proposal })),
    dropProposal: assign({ proposal: null }),
    // The manager's Leader for one team: one of that team's own sign-ups, or none.
    assignLeader: assign(({ context }, e: { team: number; signupId: number | null }) => ({
      proposal: context.proposal && {
        ...context.proposal,
        teams: context.proposal.teams.map((t, i) =>
          i === e.team && (e.signupId === null || t.signup_ids.includes(e.signupId)) ? { ...t, leader_signup_id: e.signupId } : t),
      },
    })),
    assignWom: assign((_, wom: WomProgress) => ({ wom })),
    clearMessage: assign({ message: null }),
    showSuccess: assign((_, text: string) => ({ message: { tone: 'success' as const, text } })),
    showError: assign((_, error: unknown) => ({ message: { tone: 'error' as const, text: errorText(error, SIGNUPS_TEXTS.actionFailed) } })),
  },
}).createMachine({
  id: 'signups',
  context: { items: [], error: null, teamCount: 2, proposal: null, wom: null, message: null },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: signupList.load() },
    failed: { on: { 'signups.reload': 'loading' } },
    loaded: {
      // While a fetch runs, its progress (and the scores it brought) are read again.
      after: { womPoll: { guard: 'womRunning', target: 'checkingWom' } },
      on: {
        'signups.reload': { target: 'loading', actions: 'clearMessage' },
        'balance.request': { target: 'proposing', actions: { type: 'assignTeamCount', params: ({ event }) => event.teamCount } },
        'wom.check': { target: 'checkingWom', actions: 'clearMessage' },
      },
    },
    proposing: {
      tags: ['busy'],
      invoke: {
        id: 'proposeTeams',
        src: 'proposeTeams',
        input: ({ context }) => ({ teamCount: context.teamCount }),
        onDone: { target: 'proposed', actions: { type: 'assignProposal', params: ({ event }) => event.output } },
        onError: { target: 'loaded', actions: { type: 'showError', params: errorOf } },
      },
    },
    proposed: {
      on: {
        'balance.leader': { actions: { type: 'assignLeader', params: ({ event }) => event } },
        'balance.apply': { target: 'applying', actions: 'clearMessage' },
        'balance.cancel': { target: 'loaded', actions: ['dropProposal', 'clearMessage'] },
        'balance.request': { target: 'proposing', actions: ['dropProposal', { type: 'assignTeamCount', params: ({ event }) => event.teamCount }] },
      },
    },
    applying: {
      tags: ['busy'],
      invoke: {
        id: 'applyProposal',
        src: 'applyProposal',
        input: ({ context }) => ({ proposal: context.proposal as Proposal }),
        onDone: { target: 'loading', actions: ['dropProposal', { type: 'showSuccess', params: ({ event }) => SIGNUPS_TEXTS.applied(event.output) }] },
        onError: { target: 'proposed', actions: { type: 'showError', params: errorOf } },
      },
    },
    checkingWom: {
      tags: ['busy'],
      invoke: {
        id: 'loadWomProgress',
        src: 'loadWomProgress',
        onDone: { target: 'loading', actions: { type: 'assignWom', params: ({ event }) => event.output } },
        onError: { target: 'loaded', actions: { type: 'showError', params: errorOf } },
      },
    },
  },
});
