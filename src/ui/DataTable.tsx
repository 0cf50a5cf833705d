import type { ReactNode } from 'react';
import { TableHead } from './TableHead';

/**
 * A table of rows with its header row (TableHead) in the sideways scroll box, so a wide table
 * never scrolls the page (docs/client.md §1 layout). `children` are the body's rows; with
 * `sections` they are the table's own sections instead (`<tbody>` groups under heading rows, a
 * `<tfoot>`). The
 * `cards-sm` class in `className` lays each row out as a card on a phone.
 */
export function DataTable({
  className,
  columns,
  label,
  testId,
  busy,
  sections = false,
  children,
}: {
  className: string;
  /** The column headers in order; `false` leaves a column out. */
  columns: readonly (string | false)[];
  /** The table's accessible name, when nothing on screen names it. */
  label?: string;
  testId?: string;
  /** aria-busy of the table: its rows are being read again. */
  busy?: boolean;
  sections?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className={className} aria-label={label} aria-busy={busy} data-testid={testId}>
        <TableHead columns={columns.filter((c): c is string => c !== false)} />
        {sections ? children : <tbody>{children}</tbody>}
      </table>
    </div>
  );
}
