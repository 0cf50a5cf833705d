import { useState } from 'react';

/**
 * The table model shared by the paged tables (Members tab, Tasks tab; docs/client.md §1, §12; docs/game-rules.md
 * §13): rows filtered by a search, cut into pages of a chosen size, the page going back to 1
 * whenever the row count, the page size or the search changes. Pure functions plus one hook.
 */

/** Page sizes of a paged table, default first (docs/client.md §12). */
export const PAGE_SIZES = [10, 25, 50] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 10;

/** One page of a list: the clamped page number (1-based), the page count and the slice bounds. */
export interface PageWindow {
  page: number;
  pageCount: number;
  /** Index of the first row shown (0-based) and one past the last. */
  start: number;
  end: number;
}

/** The window of `page` (1-based, clamped to 1..pageCount) over `total` rows, `size` per page. */
export function pageWindow(total: number, page: number, size: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / size));
  const clamped = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const start = (clamped - 1) * size;
  return { page: clamped, pageCount, start: Math.min(start, total), end: Math.min(start + size, total) };
}

/** One page of rows with its 1-based range, for the 'X-Y of N' label. */
export interface Page<T> {
  rows: T[];
  /** The page shown (clamped into 1..pageCount). */
  page: number;
  pageCount: number;
  /** 1-based index of the first row shown, 0 when there are none. */
  from: number;
  /** 1-based index of the last row shown. */
  to: number;
  total: number;
}

/** Page `page` (1-based, clamped) of `rows` at `size` rows a page; an empty list has one empty page. */
export function paginate<T>(rows: readonly T[], page: number, size: number): Page<T> {
  const w = pageWindow(rows.length, page, size);
  return { rows: rows.slice(w.start, w.end), page: w.page, pageCount: w.pageCount, from: w.end > w.start ? w.start + 1 : 0, to: w.end, total: rows.length };
}

/** The page-reset key: the page goes back to 1 whenever the row count, the page size or the search changes. */
export const pageResetKey = (rowCount: number, size: number, search: string) => `${rowCount}|${size}|${search}`;

/** What a paged table shows and the controls it offers. */
export interface TableModel<T> {
  search: string;
  setSearch: (search: string) => void;
  pageSize: PageSize;
  setPageSize: (size: PageSize) => void;
  /** The rows the search keeps, and the window of the current page over them. */
  filtered: T[];
  window: PageWindow;
  /** The rows of the current page. */
  rows: T[];
  setPage: (page: number) => void;
}

/**
 * The table model of `all` rows: `filter(rows, search)` keeps the rows a search matches. The page
 * is derived on render from its reset key (no effect), so it returns to 1 as the key changes.
 */
export function useTableModel<T>(all: readonly T[], filter: (rows: readonly T[], search: string) => T[]): TableModel<T> {
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const key = pageResetKey(all.length, pageSize, search);
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const filtered = filter(all, search);
  const window = pageWindow(filtered.length, page, pageSize);
  return {
    search,
    setSearch,
    pageSize,
    setPageSize,
    filtered,
    window,
    rows: filtered.slice(window.start, window.end),
    setPage: (next) => setPaging({ key, page: next }),
  };
}
