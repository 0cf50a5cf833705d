/**
 * The Game Tasks screen of one event's game (product-spec section 2 Game Tasks screen):
 * placeholder until issue #5 fills it. Props: clan, event and game ids, and onBack returning to
 * the event list.
 */
export function GameTasksView({ clanId, eventId, gameId, onBack }: { clanId: number; eventId: number; gameId: number | null; onBack: () => void }) {
  return (
    <section className="placeholder" data-clan={clanId} data-event={eventId} data-game={gameId ?? ''}>
      <button type="button" className="btn" onClick={onBack}>Back to Event List</button>
      <p className="muted">The board squares and their tasks will be managed here.</p>
    </section>
  );
}
