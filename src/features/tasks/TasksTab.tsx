/**
 * The Tasks tab of clan management (product-spec section 2 Tasks tab): filled by issue #4.
 * Props: the clan id and whether the viewer is a manager.
 */
export function TasksTab({ clanId, isManager }: { clanId: number; isManager: boolean }) {
  return (
    <section className="placeholder" data-clan={clanId} data-manager={isManager}>
      <p className="muted">The clan task pool will be shown here.</p>
    </section>
  );
}
