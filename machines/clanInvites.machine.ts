import { assign, setup } from 'xstate';
import type { Invite } from '../contract/invite';
import { INVITE_LIST_TEXTS } from '../contract/invite';
import { listLoad, type ListContext } from './listLoader';
import { missingPromise } from './shared';

/** The live invites (`items`, the load failure `error`) and the outcome of the last copy. */
export interface ClanInvitesContext extends ListContext<Invite> {
  /** The last copy's outcome: copied, or could not copy. */
  message: { tone: 'success' | 'error'; text: string } | null;
  /** The link the last `invite.copy` asked for. */
  copying: string;
}

export type ClanInvitesEvent =
  | { type: 'invites.reload' }
  /** Copy an invite's link to the clipboard. */
  | { type: 'invite.copy'; url: string };

/** The list-loader load step of the clan's live invites. */
const inviteList = listLoad<Invite, ClanInvitesContext, 'loadInvites'>({
  id: 'clanInvites',
  actor: 'loadInvites',
  fallback: INVITE_LIST_TEXTS.loadFailed,
});

/**
 * A clan's live invites on the clan page, for managers (docs/client.md §15; docs/server.md
 * §18): the list-loader load step: `loading` → `loaded`, or `failed` with the load's error text
 * (`invites.reload` tries again). In `loaded`, `invites.reload` reads the list again in
 * `reloading` while it stays on screen (after a new invite or a revoke; a failed reload keeps the
 * rows with the error beside them), and `invite.copy` puts an invite's link on the clipboard
 * (`copying`, actor `copyLink`), then says so or that it could not. Making and revoking an invite
 * are confirm dialogs (the confirmAction chart), which send `invites.reload` when they succeed.
 */
export const clanInvitesMachine = setup({
  types: {
    context: {} as ClanInvitesContext,
    events: {} as ClanInvitesEvent,
  },
  actors: { ...inviteList.actors, copyLink: missingPromise<void, { url: string }>('clanInvites', 'copyLink') },
  actions: {
    assignItems: assign(({ context }, items: Invite[]) => inviteList.loaded(context, items)),
    assignError: assign((_, error: unknown) => inviteList.failed(error)),
    clearMessage: assign({ message: null }),
    showMessage: assign((_, message: ClanInvitesContext['message']) => ({ message })),
  },
}).createMachine({
  id: 'clanInvites',
  context: { items: [], error: null, message: null, copying: '' },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: inviteList.load() },
    loaded: {
      on: {
        'invites.reload': { target: 'reloading', actions: 'clearMessage' },
        'invite.copy': { target: 'copying', actions: ['clearMessage', assign({ copying: ({ event }) => event.url })] },
      },
    },
    reloading: { tags: ['busy'], invoke: inviteList.load({ failed: 'loaded' }) },
    copying: {
      tags: ['busy'],
      invoke: {
        id: 'copyLink',
        src: 'copyLink',
        input: ({ context }) => ({ url: context.copying }),
        onDone: { target: 'loaded', actions: { type: 'showMessage', params: { tone: 'success', text: INVITE_LIST_TEXTS.copied } } },
        onError: { target: 'loaded', actions: { type: 'showMessage', params: { tone: 'error', text: INVITE_LIST_TEXTS.copyFailed } } },
      },
    },
    failed: { on: { 'invites.reload': 'loading' } },
  },
});
