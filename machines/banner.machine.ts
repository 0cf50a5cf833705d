import { assign, setup } from 'xstate';

/** Tone of a banner message: success (green), warning (orange: partly done), error (red) or info. */
export type BannerTone = 'success' | 'warning' | 'error' | 'info';

/** One banner message. */
export interface BannerMessage {
  tone: BannerTone;
  text: string;
}

export interface BannerContext {
  message: BannerMessage | null;
}

type BannerShow = { type: 'message.show'; tone: BannerTone; text: string };
export type BannerEvent = BannerShow | { type: 'message.dismiss' };

/** Milliseconds of the banner's named delays (docs/game-rules.md §6, last line). */
export const BANNER_DELAYS = {
  /** A message starts fading this long after it appears. */
  messageFade: 4000,
  /** ... and is removed this long after it started fading (5 s after it appeared). */
  messageRemove: 1000,
} as const;

/** The same delays for API messages (docs/client.md §12: they fade after 5 s, plus 1 s to go). */
export const API_MESSAGE_DELAYS = { messageFade: 5000, messageRemove: 1000 } as const;

/**
 * The fading-message states, written once: `hidden` → `message.show` → `shown` (the clock
 * restarts on every `message.show`), after `messageFade` (4 s) `fading` (tag `messageFading`),
 * after `messageRemove` (1 s more) `hidden` again with `clearMessage`. The banner chart is built
 * from them, and the charts whose message sits beside other parallel regions (clanRole,
 * teamMembers) take them as their message region, so the fade and the clear stay steps of their
 * own graph (their model tests drive them). `show` are the actions of every `message.show`.
 */
export function fadingMessageStates<const TShow>(show: TShow) {
  return {
    hidden: { on: { 'message.show': { target: 'shown', actions: show } } },
    shown: {
      after: { messageFade: 'fading' },
      on: { 'message.show': { target: 'shown', reenter: true, actions: show } },
    },
    fading: {
      tags: ['messageFading'],
      after: { messageRemove: { target: 'hidden', actions: 'clearMessage' } },
      on: { 'message.show': { target: 'shown', actions: show } },
    },
  } as const;
}

/**
 * The one fading-message chart (docs/architecture.md §4): the global message banner of
 * the Event Game view and the Game Tasks screen, and the action message of the game play screen
 * (invoked by gamePlay), built from `fadingMessageStates` (docs/client.md §7: messages appear in a global
 * banner that fades out; 4: status and action messages clear themselves, fade at 4 s, removal at 5 s). `message.show` replaces any
 * message and restarts the clock; `message.dismiss` removes it at once.
 */
export const bannerMachine = setup({
  types: {
    context: {} as BannerContext,
    events: {} as BannerEvent,
  },
  actions: {
    assignMessage: assign((_, message: BannerMessage) => ({ message })),
    clearMessage: assign({ message: null }),
  },
  delays: {
    messageFade: BANNER_DELAYS.messageFade,
    messageRemove: BANNER_DELAYS.messageRemove,
  },
}).createMachine({
  id: 'banner',
  context: { message: null },
  initial: 'hidden',
  on: { 'message.dismiss': { target: '.hidden', actions: 'clearMessage' } },
  states: fadingMessageStates({ type: 'assignMessage', params: ({ event }: { event: BannerShow }) => ({ tone: event.tone, text: event.text }) }),
});
