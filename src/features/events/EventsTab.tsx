/**
 * The Events tab of clan management (product-spec section 2 Events tab): filled by issue #4.
 * Props: the clan id and whether the viewer is a manager.
 */
export function EventsTab({ clanId, isManager }: { clanId: number; isManager: boolean }) {
  return (
    <section className="placeholder" data-clan={clanId} data-manager={isManager}>
      <p className="muted">Events, teams and games of this clan will be managed here.</p>
    </section>
  );
}
