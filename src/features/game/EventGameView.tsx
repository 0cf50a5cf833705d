/**
 * The Event Game view of one event (product-spec section 2 Event Game view): placeholder until
 * issue #5 fills it. Props: clan and event ids, the event's game id (null: no game yet), and
 * onBack returning to the event list.
 */
export function EventGameView({ clanId, eventId, gameId, onBack }: { clanId: number; eventId: number; gameId: number | null; onBack: () => void }) {
  return (
    <section className="placeholder" data-clan={clanId} data-event={eventId} data-game={gameId ?? ''}>
      <div className="row">
        <button type="button" className="btn" onClick={onBack}>Back to Events</button>
        <strong>Managing: Game Board</strong>
      </div>
      <p className="muted">The game board of this event will be managed here.</p>
    </section>
  );
}
