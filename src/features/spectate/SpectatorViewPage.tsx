/** /games/spectate/{gameId} public spectator view: filled by issue #6. */
export function SpectatorViewPage() {
  return (
    <section className="panel placeholder">
      <h1>Spectator View</h1>
      <p className="muted">The live board of this game will be shown here.</p>
    </section>
  );
}
