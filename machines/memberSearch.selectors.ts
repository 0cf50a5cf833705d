import type { SnapshotFrom } from 'xstate';
import type { memberSearchMachine } from './memberSearch.machine';

type S = SnapshotFrom<typeof memberSearchMachine>;

/** Selectors of Add Member's search by name (docs/client.md §5). */
export const isMemberSearchBusy = (s: S) => s.hasTag('busy');
/** The search's answer while it is shown, else null (the dialog then offers the list it loaded). */
export const selectSearchResults = (s: S) => (s.matches('found') ? s.context.results : null);
/** The text typed. */
export const selectSearchText = (s: S) => s.context.text;
/** The failed search's text, else null. */
export const selectSearchError = (s: S) => (s.matches('failed') ? s.context.error : null);
/** True while fewer than 3 characters are typed (but some are). */
export const isSearchTooShort = (s: S) => s.matches('idle') && s.context.text.trim() !== '';
