/** /profile (product-spec section 2 Profile): filled by issue #3. */
export function ProfilePage() {
  return (
    <section className="panel placeholder">
      <h1>Profile</h1>
      <p className="muted">Your IGNs, clan memberships and account settings will be managed here.</p>
    </section>
  );
}
