import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { memberSearchMachine } from '../../../machines/memberSearch.machine';
import { isMemberSearchBusy, isSearchTooShort, selectSearchError, selectSearchResults, selectSearchText } from '../../../machines/memberSearch.selectors';
import { MEMBER_SEARCH_MIN } from '../../../contract/memberSearch';
import { Notice } from '../../ui/Notice';

/** The texts of Add Member's search by name (docs/client.md §5). */
export const MEMBER_SEARCH_TEXTS = {
  label: 'Search by name',
  hint: `Not listed? Type at least ${MEMBER_SEARCH_MIN} characters of their username.`,
  tooShort: `Type at least ${MEMBER_SEARCH_MIN} characters to search.`,
  searching: 'Searching...',
  none: (q: string) => `No users found whose name starts with '${q}'.`,
  found: (n: number, q: string) => `${n} ${n === 1 ? 'user' : 'users'} whose name starts with '${q}': choose below.`,
} as const;

/** How many users of the answer have a username starting with `q` (the answer also holds the usual list). */
function matchesOf(users: { username: string }[], q: string): number {
  const start = q.trim().toLowerCase();
  return users.filter((u) => u.username.toLowerCase().startsWith(start)).length;
}

/**
 * Add Member's search box (docs/client.md §5): the text goes to the memberSearch chart, which
 * searches 300 ms after the last change once 3 characters are typed; the line under the box says
 * what to do, that a search runs, or what it found (none, or how many to choose from in the User
 * list, which then offers the search's answer). A failed search shows the server's text.
 */
export function MemberSearchBox({ actor }: { actor: ActorRefFrom<typeof memberSearchMachine> }) {
  const text = useSelector(actor, selectSearchText);
  const busy = useSelector(actor, isMemberSearchBusy);
  const tooShort = useSelector(actor, isSearchTooShort);
  const results = useSelector(actor, selectSearchResults);
  const error = useSelector(actor, selectSearchError);
  const id = useId();
  const q = text.trim();
  const status = busy
    ? MEMBER_SEARCH_TEXTS.searching
    : results
      ? matchesOf(results, q) === 0
        ? MEMBER_SEARCH_TEXTS.none(q)
        : MEMBER_SEARCH_TEXTS.found(matchesOf(results, q), q)
      : tooShort
        ? MEMBER_SEARCH_TEXTS.tooShort
        : error
          ? ''
          : MEMBER_SEARCH_TEXTS.hint;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{MEMBER_SEARCH_TEXTS.label}</label>
      <input
        id={id}
        type="search"
        className="input"
        autoComplete="off"
        value={text}
        aria-describedby={`${id}-status`}
        aria-busy={busy}
        data-testid="member-search-input"
        onChange={(e) => actor.send({ type: 'search.change', text: e.target.value })}
      />
      <p id={`${id}-status`} className="field__hint" role="status" data-testid="member-search-status">{status}</p>
      {error && <Notice tone="error" testId="member-search-error">{error}</Notice>}
    </div>
  );
}
