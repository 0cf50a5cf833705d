import { assign, not, setup } from 'xstate';
import type { DinkLink } from '../contract/dink';
import { dinkConfigUrl } from '../contract/dinkConfig';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';
import { loadStep } from './listLoader';

/** The panel's own texts the chart shows after an action (docs/client.md §7 Dink panel). */
export const DINK_LINK_TEXTS = {
  created: 'Dink link made. Paste it into Dink (see How to set up Dink below).',
  rotated: 'New Dink link made: the old one no longer works. Paste the new one into Dink.',
  revoked: 'Dink link revoked: posts to it are refused.',
  copied: 'Link copied.',
  configCopied: 'Config URL copied. Paste it into Dink → Advanced → Dynamic Config URL.',
  copyFailed: 'Could not copy: select the link and copy it by hand.',
  autoOn: 'Auto-approve is on: a matching post with a screenshot approves the task at once.',
  autoOff: 'Auto-approve is off: matching posts wait for a referee.',
  actionFailed: 'Something went wrong. Please retry.',
} as const;

export interface DinkLinkContext {
  /** The event's Dink link as the server last answered it, or null when none is made. */
  link: DinkLink | null;
  /** The last action's outcome: a success text or the server's error. */
  message: { tone: 'success' | 'error'; text: string } | null;
  /** The failure text of the last load, or null. */
  error: string | null;
  /** Which URL the last `link.copy` asked for: the one-link set-up's, or the raw webhook's. */
  copying: DinkCopyTarget;
}

/** The URLs the panel copies: the one-link set-up (Dink's Dynamic Config URL) or the raw webhook. */
export type DinkCopyTarget = 'config' | 'webhook';

export type DinkLinkEvent =
  | { type: 'dink.create' }
  | { type: 'autoApprove.toggle' }
  | { type: 'link.copy'; what: DinkCopyTarget }
  | { type: 'dink.reload' }
  /** Facts from the Rotate and Revoke dialogs (confirmAction): the server made a new link, or revoked it. */
  | { type: 'link.rotated'; dink: DinkLink }
  | { type: 'link.revoked' };

/** The list-loader load step over the event's link. */
const linkLoad = loadStep<DinkLink | null, DinkLinkContext, 'loadLink'>({
  id: 'dinkLink',
  actor: 'loadLink',
  fallback: DINK_LINK_TEXTS.actionFailed,
  onLoaded: (_, link) => ({ link }),
});

/** The chart's types, actors (effects provided by the panel), guards and actions. */
const dinkLinkSetup = setup({
  types: {
    context: {} as DinkLinkContext,
    events: {} as DinkLinkEvent,
  },
  actors: {
    ...linkLoad.actors,
    createLink: missingPromise<DinkLink>('dinkLink', 'createLink'),
    saveAutoApprove: missingPromise<DinkLink, { autoApprove: boolean }>('dinkLink', 'saveAutoApprove'),
    copyLink: missingPromise<void, { url: string }>('dinkLink', 'copyLink'),
  },
  guards: {
    hasLink: ({ context }) => context.link !== null,
  },
  actions: {
    assignLoaded: assign(({ context }, link: DinkLink | null) => linkLoad.loaded(context, link)),
    assignError: assign((_, error: unknown) => linkLoad.failed(error)),
    assignLink: assign((_, link: DinkLink | null) => ({ link })),
    clearMessage: assign({ message: null }),
    showSuccess: assign((_, text: string) => ({ message: { tone: 'success' as const, text } })),
    showError: assign((_, error: unknown) => ({ message: { tone: 'error' as const, text: errorText(error, DINK_LINK_TEXTS.actionFailed) } })),
  },
});

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/**
 * The Dink link of an event (docs/client.md §7 Dink panel; docs/server.md §13): the list-loader
 * load step (listLoader.ts): `loading` reads it (`loadLink`) → `loaded`, or `failed` with the
 * load's error text in `error` (`dink.reload` tries again). In `loaded`, without a
 * link `dink.create` makes one (`creating`); with one, `autoApprove.toggle` saves the switch
 * turned over (`savingAutoApprove`) and `link.copy` puts a URL on the clipboard (`copying`):
 * `what` 'config' the one-link set-up's (`{url}/config`), 'webhook' the raw webhook.
 * Rotate and Revoke are confirm dialogs (the confirmAction chart); their success arrives here as
 * the facts `link.rotated` (the new link) and `link.revoked`. Each action ends back in `loaded`
 * with its text or the server's error; `dink.reload` reads the link again.
 */
export const dinkLinkMachine = dinkLinkSetup.createMachine({
  id: 'dinkLink',
  context: { link: null, message: null, error: null, copying: 'config' },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: linkLoad.load() },
    failed: {
      on: { 'dink.reload': { target: 'loading', actions: 'clearMessage' } },
    },
    loaded: {
      on: {
        'dink.create': { guard: not('hasLink'), target: 'creating', actions: 'clearMessage' },
        'autoApprove.toggle': { guard: 'hasLink', target: 'savingAutoApprove', actions: 'clearMessage' },
        'link.copy': { guard: 'hasLink', target: 'copying', actions: ['clearMessage', assign({ copying: ({ event }) => event.what })] },
        'dink.reload': { target: 'loading', actions: 'clearMessage' },
        'link.rotated': { actions: [{ type: 'assignLink', params: ({ event }) => event.dink }, { type: 'showSuccess', params: DINK_LINK_TEXTS.rotated }] },
        'link.revoked': { actions: [{ type: 'assignLink', params: null }, { type: 'showSuccess', params: DINK_LINK_TEXTS.revoked }] },
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createLink',
        src: 'createLink',
        onDone: { target: 'loaded', actions: [{ type: 'assignLink', params: ({ event }) => event.output }, { type: 'showSuccess', params: DINK_LINK_TEXTS.created }] },
        onError: { target: 'loaded', actions: { type: 'showError', params: errorOf } },
      },
    },
    savingAutoApprove: {
      tags: ['busy'],
      invoke: {
        id: 'saveAutoApprove',
        src: 'saveAutoApprove',
        input: ({ context }) => ({ autoApprove: !context.link?.auto_approve }),
        onDone: {
          target: 'loaded',
          actions: [
            { type: 'assignLink', params: ({ event }) => event.output },
            { type: 'showSuccess', params: ({ event }) => (event.output.auto_approve ? DINK_LINK_TEXTS.autoOn : DINK_LINK_TEXTS.autoOff) },
          ],
        },
        onError: { target: 'loaded', actions: { type: 'showError', params: errorOf } },
      },
    },
    copying: {
      tags: ['busy'],
      invoke: {
        id: 'copyLink',
        src: 'copyLink',
        input: ({ context }) => ({ url: !context.link ? '' : context.copying === 'config' ? dinkConfigUrl(context.link.url) : context.link.url }),
        onDone: { target: 'loaded', actions: { type: 'showSuccess', params: ({ context }) => (context.copying === 'config' ? DINK_LINK_TEXTS.configCopied : DINK_LINK_TEXTS.copied) } },
        onError: { target: 'loaded', actions: { type: 'showError', params: () => new Error(DINK_LINK_TEXTS.copyFailed) } },
      },
    },
  },
});
