import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { EligibleIgn } from '../../../machines/teamMembers.machine';
import { useAnchoredPosition } from '../../ui/useAnchoredPosition';

/** Options whose IGN or owner name contains `query` (case-insensitive); all for an empty query. */
export function filterEligible(options: EligibleIgn[], query: string): EligibleIgn[] {
  const q = query.trim().toLowerCase();
  if (!q) return options;
  return options.filter((o) => o.ign.toLowerCase().includes(q) || (o.discord_username ?? '').toLowerCase().includes(q));
}

/**
 * The searchable in-game account dropdown of the team add row (docs/client.md
 * §6): an ARIA combobox over the eligible accounts, filtered as the user types, operable with
 * the arrow keys, Enter and Escape. The list is rendered in a portal at fixed coordinates under
 * the input (useAnchoredPosition), so the member table's scroll box never clips it. Empty texts 'No available users found.' (nobody eligible) and
 * 'No matching users found.' (nothing matches the search). The chosen account is the chart's;
 * only the typed search and the open list are this widget's own.
 */
export function IgnCombobox({
  options,
  value,
  onChange,
  disabled = false,
  label = 'In-game account',
}: {
  options: EligibleIgn[];
  value: number | null;
  onChange: (ignId: number | null) => void;
  disabled?: boolean;
  label?: string;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const selected = options.find((o) => o.id === value) ?? null;
  const shown = filterEligible(options, query);
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const input = useRef<HTMLInputElement>(null);
  const place = useAnchoredPosition(input, open);
  useEffect(() => {
    // The active option follows the arrow keys into the list's visible part.
    if (open) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });
  const choose = (o: EligibleIgn) => {
    onChange(o.id);
    setQuery('');
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.min(a + 1, Math.max(shown.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter') {
      if (open) {
        e.preventDefault();
        if (shown[active]) choose(shown[active]);
      }
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };
  return (
    <div className="combobox">
      <input
        ref={input}
        className="input"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
        placeholder="Search in-game accounts..."
        disabled={disabled}
        value={open ? query : (selected?.ign ?? query)}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
          if (value !== null) onChange(null);
        }}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open &&
        createPortal(
          <ul className="combobox__list" id={listId} role="listbox" aria-label={label} style={place}>
            {shown.length === 0 ? (
              <li className="combobox__empty" role="option" aria-disabled="true" aria-selected={false}>
                {options.length === 0 ? 'No available users found.' : 'No matching users found.'}
              </li>
            ) : (
              shown.map((o, i) => (
                <li
                  key={o.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={o.id === value}
                  className={i === active ? 'combobox__option combobox__option--active' : 'combobox__option'}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => choose(o)}
                >
                  <span>{o.ign}</span>
                  {o.discord_username && <span className="combobox__hint"> ({o.discord_username})</span>}
                </li>
              ))
            )}
          </ul>,
          document.body,
        )}
    </div>
  );
}
