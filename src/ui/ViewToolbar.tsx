/** The toolbar of a manage view: the back button and the view's title (the section's label). */
export function ViewToolbar({ backLabel, onBack, titleId, title }: { backLabel: string; onBack: () => void; titleId: string; title: string }) {
  return (
    <div className="toolbar">
      <button type="button" className="btn" onClick={onBack}>
        {backLabel}
      </button>
      <h2 id={titleId} className="toolbar__title">
        {title}
      </h2>
    </div>
  );
}
