/** A centred loading indicator with a visible text (e.g. 'Loading profile data...'). */
export function Spinner({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__dice" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
