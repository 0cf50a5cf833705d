import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { EventsTab, type EventsEffects } from '../../src/features/events/EventsTab';
import { parseClanView } from '../../src/base/paths';

/**
 * Renders the Events tab of clan `clanId` as the clan page does: in a memory router at its event
 * list URL, following the URL's view; other clan URLs show 'elsewhere'.
 */
export function renderEventsTab(clanId: number, effects: EventsEffects, isManager = true) {
  function RoutedEventsTab() {
    const view = parseClanView(useParams()['*']);
    return view?.tab === 'events' ? <EventsTab clanId={clanId} isManager={isManager} route={view.events} effects={effects} /> : <p>elsewhere</p>;
  }
  const router = createMemoryRouter([{ path: '/clans/manage/:clanId/*', element: <RoutedEventsTab /> }], { initialEntries: [`/clans/manage/${clanId}/events`] });
  return { router, ...render(<RouterProvider router={router} />) };
}
