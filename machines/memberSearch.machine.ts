import { assign, setup } from 'xstate';
import { errorText } from '../contract/errorText';
import { MEMBER_SEARCH_MIN } from '../contract/memberSearch';
import { missingPromise } from './shared';

export type MemberSearchEvent = { type: 'search.change'; text: string };

/** A user Add Member may offer (GET .../available_members). */
export interface SearchedUser {
  id: number;
  username: string;
}

/** The clan, what was typed, the last answer of a search (null before one) and the last failure's text. */
export interface MemberSearchContext {
  clanId: number;
  text: string;
  results: SearchedUser[] | null;
  error: string | null;
}

/** Shown when a failed search carries no text of its own. */
const SEARCH_FAILED = 'Failed to search for users.';

/** True when `text` is long enough to search by (MEMBER_SEARCH_MIN characters after trimming). */
function isSearchText(text: string): boolean {
  return [...text.trim()].length >= MEMBER_SEARCH_MIN;
}

/** What a change of the text does in every state: wait again before searching, or drop the search. */
const onChange = {
  'search.change': [
    { guard: { type: 'isSearchable', params: ({ event }: { event: MemberSearchEvent }) => event.text }, target: '#memberSearch.typing', reenter: true, actions: { type: 'assignText', params: ({ event }: { event: MemberSearchEvent }) => event.text } },
    { target: '#memberSearch.idle', actions: { type: 'clearSearch', params: ({ event }: { event: MemberSearchEvent }) => event.text } },
  ],
} as const;

/**
 * Add Member's search by name (docs/client.md §5; docs/server.md §18, "What members see"):
 * `idle` while fewer than 3 characters are typed (no search, no results); each change of a
 * searchable text goes to `typing` and waits the named `debounce` (300 ms) again, so only the
 * text typed last is searched; `searching` (tag `busy`) runs `searchUsers` with the trimmed text;
 * `found` holds the answer (the list the dialog offers, empty or not), `failed` the server's
 * text. A change while searching drops that search (its answer is never shown).
 */
export const memberSearchMachine = setup({
  types: {
    context: {} as MemberSearchContext,
    input: {} as { clanId: number },
    events: {} as MemberSearchEvent,
  },
  actors: {
    searchUsers: missingPromise<SearchedUser[], { clanId: number; q: string }>('memberSearch', 'searchUsers'),
  },
  delays: { debounce: 300 },
  guards: {
    isSearchable: (_, text: string) => isSearchText(text),
  },
  actions: {
    assignText: assign((_, text: string) => ({ text, error: null })),
    clearSearch: assign((_, text: string) => ({ text, results: null, error: null })),
    assignResults: assign((_, results: SearchedUser[]) => ({ results })),
    assignError: assign((_, error: unknown) => ({ error: errorText(error, SEARCH_FAILED), results: null })),
  },
}).createMachine({
  id: 'memberSearch',
  context: ({ input }) => ({ clanId: input.clanId, text: '', results: null, error: null }),
  initial: 'idle',
  states: {
    idle: { on: onChange },
    typing: {
      tags: ['busy'],
      on: onChange,
      after: { debounce: 'searching' },
    },
    searching: {
      tags: ['busy'],
      on: onChange,
      invoke: {
        src: 'searchUsers',
        input: ({ context }) => ({ clanId: context.clanId, q: context.text.trim() }),
        onDone: { target: 'found', actions: { type: 'assignResults', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    found: { on: onChange },
    failed: { on: onChange },
  },
});
