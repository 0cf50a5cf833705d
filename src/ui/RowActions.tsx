/**
 * The Edit and Delete buttons of a row (IGNs, tasks, teams): small buttons whose accessible names
 * are 'Edit {label}' and 'Delete {label}'; Delete is the danger style.
 */
export function EditDeleteButtons({ label, onEdit, onDelete }: { label: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <button type="button" className="btn btn--small" aria-label={`Edit ${label}`} onClick={onEdit}>
        Edit
      </button>
      <button type="button" className="btn btn--small btn--danger" aria-label={`Delete ${label}`} onClick={onDelete}>
        Delete
      </button>
    </>
  );
}
