/** /clans/manage/{clanId} (product-spec section 2 Clan management screen): filled by issue #3. */
export function ClanManagePage() {
  return (
    <section className="panel placeholder">
      <h1>Clan Management</h1>
      <p className="muted">Members, events and tasks of this clan will be managed here.</p>
    </section>
  );
}
