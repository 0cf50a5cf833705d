import { useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab of a TabList: its id (also naming its tab and panel elements) and its label. */
export interface TabItem<TId extends string> {
  id: TId;
  label: ReactNode;
}

/** The key → index step of the WAI-ARIA tabs pattern (horizontal): arrows wrap, Home and End jump. */
function targetIndex(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * A tablist with a roving tabindex (WAI-ARIA tabs pattern, automatic activation): only the
 * selected tab is in the Tab order; Left and Right arrows (wrapping), Home and End move focus and
 * select. Tab `id` t is `${idPrefix}-tab-${t}` and controls `${idPrefix}-panel-${t}`.
 */
export function TabList<TId extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix,
  disabled = false,
}: {
  tabs: readonly TabItem<TId>[];
  selected: TId;
  onSelect: (id: TId) => void;
  label: string;
  idPrefix: string;
  disabled?: boolean;
}) {
  const refs = useRef(new Map<TId, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = targetIndex(e.key, index, tabs.length);
    if (next === null) return;
    e.preventDefault();
    const id = tabs[next].id;
    onSelect(id);
    refs.current.get(id)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t, index) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
            else refs.current.delete(t.id);
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.id}`}
          aria-selected={selected === t.id}
          aria-controls={`${idPrefix}-panel-${t.id}`}
          tabIndex={selected === t.id ? 0 : -1}
          className={selected === t.id ? 'tab tab--active' : 'tab'}
          disabled={disabled}
          onClick={() => onSelect(t.id)}
          onKeyDown={(e) => onKeyDown(e, index)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
