/** /games/spectate (product-spec section 2 Spectate list): filled by issue #6. */
export function SpectateListPage() {
  return (
    <section className="panel placeholder">
      <h1>Spectate Games</h1>
      <p className="muted">Live games you can watch will be listed here.</p>
    </section>
  );
}
