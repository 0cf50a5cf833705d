import { assign, sendTo, setup } from 'xstate';
import type { DraftState, Signup } from '../contract/signup';
import type { DraftRoomAnswer } from '../contract/draft';
import { errorText } from '../contract/errorText';
import { missingCallback, missingPromise } from './shared';
import { bannerMachine, type BannerEvent } from './banner.machine';
import { loadStep } from './listLoader';

/** A manager's control of a running or paused draft (docs/server.md §16). */
export type DraftControl = 'pause' | 'resume' | 'undo' | 'end';

/** The room's texts after an action (docs/client.md §14). */
export const DRAFT_ROOM_TEXTS = {
  started: 'Draft started.',
  pause: 'Draft paused.',
  resume: 'Draft resumed.',
  undo: 'Last pick undone.',
  end: 'Draft ended: every pick is on its team.',
  actionFailed: 'Something went wrong. Please retry.',
} as const;

export interface DraftRoomContext {
  /** The event's name, the room's heading (null until loaded). */
  eventName: string | null;
  /** The draft as the server last sent it, or null before one is started. */
  draft: DraftState | null;
  /** The event's sign-ups, naming the ids of the draft. */
  signups: Signup[];
  /** Why the room could not be read (`failed`), or null; an action's outcome goes to the fading banner. */
  error: string | null;
}

export type DraftRoomEvent =
  | { type: 'draft.reload' }
  /** A manager starts the draft with these captains (the first round's order) and seconds per pick. */
  | { type: 'draft.start'; captainIds: number[]; pickSeconds: number }
  | { type: 'draft.control'; action: DraftControl }
  /** The captain on the clock picks this sign-up. */
  | { type: 'draft.pick'; signupId: number }
  /** Facts from the draft room's socket: a new draft_state, or an action_error for this socket. */
  | { type: 'draft.updated'; state: DraftState }
  | { type: 'draft.refused'; message: string };

/** What the room's socket is asked to do: send draft_pick. */
export type DraftFeedCommand = { type: 'pick'; signupId: number };

/** The list-loader load step over the room (listLoader.ts): the draft, the sign-ups and the event's name. */
const room = loadStep<DraftRoomAnswer, DraftRoomContext, 'loadRoom'>({
  id: 'draftRoom',
  actor: 'loadRoom',
  fallback: DRAFT_ROOM_TEXTS.actionFailed,
  onLoaded: (_, answer) => ({ eventName: answer.event_name ?? null, draft: answer.draft_state, signups: answer.signups }),
});

const draftRoomSetup = setup({
  types: {
    context: {} as DraftRoomContext,
    events: {} as DraftRoomEvent,
  },
  actors: {
    ...room.actors,
    startDraft: missingPromise<DraftState, { captainIds: number[]; pickSeconds: number }>('draftRoom', 'startDraft'),
    controlDraft: missingPromise<DraftState, { action: DraftControl }>('draftRoom', 'controlDraft'),
    feed: missingCallback<DraftFeedCommand>('draftRoom', 'feed'),
    banner: bannerMachine,
  },
  guards: {
    canStart: ({ context }) => context.draft === null || context.draft.status === 'done',
    canControl: ({ context, event }, action: DraftControl) => {
      const status = context.draft?.status;
      if (event.type !== 'draft.control' || event.action !== action || status === undefined || status === 'done') return false;
      if (action === 'pause') return status === 'running';
      if (action === 'resume') return status === 'paused';
      if (action === 'undo') return context.draft!.picks.length > 0;
      return true;
    },
    canPick: ({ context, event }) => event.type === 'draft.pick' && context.draft?.status === 'running' && context.draft.pool.includes(event.signupId),
  },
  actions: {
    assignLoaded: assign(({ context }, answer: DraftRoomAnswer) => room.loaded(context, answer)),
    assignError: assign((_, error: unknown) => room.failed(error)),
    assignDraft: assign((_, draft: DraftState) => ({ draft })),
    clearError: assign({ error: null }),
    dismissBanner: sendTo('banner', (): BannerEvent => ({ type: 'message.dismiss' })),
    showSuccess: sendTo('banner', (_, text: string): BannerEvent => ({ type: 'message.show', tone: 'success', text })),
    showError: sendTo('banner', (_, error: unknown): BannerEvent => ({ type: 'message.show', tone: 'error', text: errorText(error, DRAFT_ROOM_TEXTS.actionFailed) })),
    sendPick: sendTo('feed', (_, signupId: number): DraftFeedCommand => ({ type: 'pick', signupId })),
  },
});

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/** The controls, and the state of ready that saves each. */
const CONTROLS: readonly DraftControl[] = ['pause', 'resume', 'undo', 'end'];
const CONTROL_STATES = { pause: 'pausing', resume: 'resuming', undo: 'undoing', end: 'ending' } as const;

/** A state that saves one control (`controlDraft`) and goes back to idle with its text or the refusal. */
function controlState(action: DraftControl) {
  return {
    tags: ['busy'],
    invoke: {
      id: 'controlDraft',
      src: 'controlDraft',
      input: { action },
      onDone: { target: 'idle', actions: [{ type: 'assignDraft', params: ({ event }: { event: { output: DraftState } }) => event.output }, { type: 'showSuccess', params: DRAFT_ROOM_TEXTS[action] }] },
      onError: { target: 'idle', actions: { type: 'showError', params: errorOf } },
    },
  } as const;
}
const refusalOf = ({ event }: { event: { message: string } }) => new Error(event.message);

/**
 * The captains' draft room of an event (docs/client.md §14; docs/server.md §16), in the list
 * loader's words (listLoader.ts loadStep): `loading` reads the draft and the sign-ups (`loadRoom`)
 * → `loaded`, or `failed` with the error's text (`draft.reload` tries again).
 * While `loaded`, the `feed` actor watches the draft over the socket and reports each draft_state
 * (`draft.updated`) and action_error (`draft.refused`); a reconnect joins again and brings the
 * whole state. In `loaded.idle` a manager starts a draft when there is none or it is done
 * (`starting`), or pauses, resumes, undoes the last pick or ends it (`pausing`, `resuming`,
 * `undoing`, `ending`); the captain on
 * the clock picks a free agent (`picking`: the feed sends draft_pick, and the next draft_state or
 * refusal ends it). Each action ends in `loaded.idle` with its text or the server's refusal, shown
 * by the invoked `banner` chart (fading at 4 s, gone at 5 s; an action's start removes it at once),
 * so no action's text outlives the draft it was about.
 */
export const draftRoomMachine = draftRoomSetup.createMachine({
  id: 'draftRoom',
  context: { eventName: null, draft: null, signups: [], error: null },
  invoke: { id: 'banner', src: 'banner' },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: room.load() },
    failed: {
      on: { 'draft.reload': { target: 'loading', actions: 'clearError' } },
    },
    loaded: {
      invoke: { id: 'feed', src: 'feed' },
      on: {
        'draft.updated': { actions: { type: 'assignDraft', params: ({ event }) => event.state } },
        'draft.reload': { target: 'loading', actions: 'clearError' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'draft.start': { guard: 'canStart', target: 'starting', actions: 'dismissBanner' },
            'draft.control': CONTROLS.map((action) => ({ guard: { type: 'canControl' as const, params: action }, target: CONTROL_STATES[action], actions: 'dismissBanner' as const })),
            'draft.pick': { guard: 'canPick', target: 'picking', actions: ['dismissBanner', { type: 'sendPick', params: ({ event }) => event.signupId }] },
            'draft.refused': { actions: { type: 'showError', params: refusalOf } },
          },
        },
        starting: {
          tags: ['busy'],
          invoke: {
            id: 'startDraft',
            src: 'startDraft',
            input: ({ event }) => (event.type === 'draft.start' ? { captainIds: event.captainIds, pickSeconds: event.pickSeconds } : { captainIds: [], pickSeconds: 0 }),
            onDone: { target: 'idle', actions: [{ type: 'assignDraft', params: ({ event }) => event.output }, { type: 'showSuccess', params: DRAFT_ROOM_TEXTS.started }] },
            onError: { target: 'idle', actions: { type: 'showError', params: errorOf } },
          },
        },
        pausing: controlState('pause'),
        resuming: controlState('resume'),
        undoing: controlState('undo'),
        ending: controlState('end'),
        picking: {
          tags: ['busy'],
          on: {
            'draft.updated': { target: 'idle', actions: { type: 'assignDraft', params: ({ event }) => event.state } },
            'draft.refused': { target: 'idle', actions: { type: 'showError', params: refusalOf } },
          },
        },
      },
    },
  },
});
