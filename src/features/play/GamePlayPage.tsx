/** Game play screen (product-spec section 2): filled by issue #6. */
export function GamePlayPage() {
  return (
    <section className="panel placeholder">
      <h1>Game</h1>
      <p className="muted">The live board, dice and game log will be shown here.</p>
    </section>
  );
}
