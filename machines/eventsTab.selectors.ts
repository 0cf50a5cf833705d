import type { SnapshotFrom } from 'xstate';
import type { eventsTabMachine, EventsView } from './eventsTab.machine';

type S = SnapshotFrom<typeof eventsTabMachine>;

/** Named selectors of the eventsTab chart. */
export const selectView = (s: S): EventsView =>
  s.matches({ eventView: 'teams' }) ? 'teams' : s.matches({ eventView: 'game' }) ? 'game' : s.matches({ eventView: 'gameTasks' }) ? 'gameTasks' : s.matches({ eventView: 'signups' }) ? 'signups' : 'list';
export const selectPast = (s: S) => s.context.past;
export const selectEvents = (s: S) => s.context.items;
export const selectEventsError = (s: S) => s.context.error;
export const selectEventsLoading = (s: S) => s.matches({ list: 'loading' });
export const selectEventsFailed = (s: S) => s.matches({ list: 'failed' });
export const selectSelectedEvent = (s: S) => s.context.selectedEvent;
export const selectEventError = (s: S) => s.context.eventError;
