/**
 * The one virtualised list of the app (docs/scaling.md#a-community-of-20000-homes): the
 * page scrolls (the window, not a box inside it), and only the rows on
 * screen plus `overscan` rows above and below are in the DOM, so a screen
 * costs what it shows, not what the community holds.
 *
 * - Rows of N columns: `columns(width)` picks N from the list's own width
 *   (a desktop grid, one column on a phone); a row is as tall as its
 *   tallest card, measured after it is drawn (cards have no fixed height).
 * - List semantics: `role="list"` and one `role="listitem"` per item with
 *   `aria-setsize` / `aria-posinset`, so a screen reader announces "3 of
 *   10,000" although only a few items exist in the DOM.
 * - Keyboard: the row holding the focus stays rendered while it is
 *   scrolled away (its control keeps the focus); Tab reaches the next item
 *   because the overscan rows exist below the screen.
 * - Scroll position and row heights are kept in memory per `listKey`, so
 *   going to another screen and back returns to the same place;
 *   `forgetScrollPosition(listKey)` makes the next visit start at the top.
 *
 * Use:
 *   <VirtualList listKey="homes" label="Homes" items={homes} getKey={(h) => h.id}
 *     columns={(width) => (width >= 900 ? 3 : width >= 600 ? 2 : 1)}
 *     estimateRowHeight={(columns) => (columns === 1 ? 180 : 240)} gap={16} overscan={3}
 *     renderItem={(home) => <ItemErrorBoundary resetKey={home.updated}><HomeCard home={home} /></ItemErrorBoundary>} />
 * Each item is wrapped in a `div role="listitem"` (a grid cell its card
 * fills): the card itself is a div or an article, not an `li`.
 *
 * Rows by place (`reuseRows`): when the items change (each keystroke of a
 * search), the row at each place is drawn again with its new items
 * instead of being taken down and built anew: React changes the words and
 * attributes that differ, where a keyed row made every card of the screen
 * a new tree of elements for the browser to style and lay out (a
 * keystroke's work at 5,000 homes went from 10 to 7 ms at p95 here). So
 * state inside an item must be keyed by the item itself (the caller's
 * job). The keyboard focus follows its item to the item's new place (or
 * leaves the list when the item is no longer drawn), as it would with keyed
 * rows, rather than stay on a control that now shows another item.
 *
 * Table rows: with `rows`, the list is the body of a table the caller
 * draws (its `role="table"` and header row around it): a `role="rowgroup"`
 * whose items are `role="row"` elements (class `rows.className`, numbered
 * by `aria-rowindex` from `rows.firstIndex`), and `renderItem` gives each
 * row's cells. One column.
 */
import {
  defaultRangeExtractor,
  measureElement,
  useWindowVirtualizer,
  type Range,
  type VirtualItem,
} from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  /** Names the list's remembered scroll position (one per screen: 'reports', 'users', 'homes'...). */
  listKey: string;
  /** The accessible name of the list. */
  label: string;
  /** The whole (filtered, sorted) list; only the visible part is drawn. */
  items: readonly T[];
  /** A stable key per item (the record id). */
  getKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** A guess at a row's height in px, for this many columns, before it is measured (closer means less jumping). */
  estimateRowHeight: (columns: number) => number;
  /** Columns for a given list width in px; one column when absent. */
  columns?: (width: number) => number;
  /** Space between rows and between columns, px. */
  gap?: number;
  /** Rows drawn beyond each edge of the screen. */
  overscan?: number;
  className?: string;
  /** The rows of a table (see above): the first item's `aria-rowindex` (2 under one header row), and each row's class. */
  rows?: { firstIndex: number; className: string };
  /** Rows keep their elements by place when the items change (see above). */
  reuseRows?: boolean;
}

interface Remembered {
  scrollY: number;
  width: number;
  scrollMargin: number;
  rows: VirtualItem[];
}

const NO_ROWS: VirtualItem[] = [];

// In memory only: a reload starts at the top, as any page does.
const remembered = new Map<string, Remembered>();

/** The next visit of this list starts at the top (e.g. after writing a record that sorts first). */
export function forgetScrollPosition(listKey: string): void {
  remembered.delete(listKey);
}

/** Tailwind's `top-0` sticky navigation bar covers this much of the top of the window. */
const STICKY_BAR_PX = 64;

export function VirtualList<T>({
  listKey,
  label,
  items,
  getKey,
  renderItem,
  estimateRowHeight,
  columns,
  gap = 0,
  overscan = 4,
  className = '',
  rows,
  reuseRows = false,
}: VirtualListProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const [restore] = useState(() => remembered.get(listKey));
  const [width, setWidth] = useState(() => restore?.width ?? 0);
  // Where the list starts in the page; the virtualizer counts offsets from the top of the document.
  const [scrollMargin, setScrollMargin] = useState(() => restore?.scrollMargin ?? 0);
  // The same two, for the unmount's note (state is not readable from an effect's cleanup).
  const place = useRef({ width, scrollMargin });
  const focusedRow = useRef<number | null>(null);
  // With reuseRows, the key of that row (its first item's) and where in the row the focus is
  // (child indexes from the row down), so that the focus can follow its items (below).
  const focused = useRef<{ key?: string; path: number[] }>({ path: [] });

  const perRow = rows ? 1 : Math.max(1, Math.floor(columns?.(width) ?? 1));
  const rowCount = Math.ceil(items.length / perRow);

  // Rows are keyed by their first item, so a remembered height is reused only for the same row
  // (the key is the item's own string: a search builds the keys of every row of its result).
  const rowKey = useCallback((row: number) => getKey(items[row * perRow]!), [perRow, getKey, items]);

  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const focused = focusedRow.current;
    if (focused === null || focused >= range.count || indexes.includes(focused)) return indexes;
    return [...indexes, focused].sort((a, b) => a - b);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimateRowHeight(perRow),
    overscan,
    gap,
    scrollMargin,
    scrollPaddingStart: STICKY_BAR_PX,
    getItemKey: rowKey,
    rangeExtractor,
    // A list shown afresh starts at its top, wherever the previous screen left the window.
    initialOffset: () => restore?.scrollY ?? 0,
    initialMeasurementsCache: restore?.rows ?? NO_ROWS,
    // A hidden list (while printing, the print-only list is shown instead)
    // measures 0 px a row: keeping the last size stops it from drawing every row.
    measureElement: (element, entry, instance) => {
      const size = measureElement(element, entry, instance);
      return size > 0
        ? size
        : (instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element))) ??
            estimateRowHeight(perRow));
    },
  });

  // Rows by place (reuseRows), after each commit: a row showing other items than when it was last
  // measured is measured again (its ref is called at its mount only); and when the focused row's
  // items went elsewhere, the focus follows them to the same control of their new place, or leaves
  // the list when they are no longer drawn, rather than stay on a control of other items.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!reuseRows || !list) return;
    const drawn = [...list.children] as HTMLElement[];
    for (const row of drawn) {
      if (row.dataset.measured === row.dataset.key) continue;
      row.dataset.measured = row.dataset.key;
      virtualizer.measureElement(row);
    }
    const active = document.activeElement as HTMLElement | null;
    const from = active && list.contains(active) ? active.closest<HTMLElement>('[data-index]') : null;
    const { key, path } = focused.current;
    if (!from || from.dataset.key === key) return;
    const to = drawn.find((row) => row.dataset.key === key);
    const control = path.reduce<Element | undefined>((node, i) => node?.children[i], to);
    if (control instanceof HTMLElement) control.focus({ preventScroll: true });
    else active!.blur();
  });

  // Heights measured with another column count are of other rows: measured again.
  const measuredWith = useRef(perRow);
  useLayoutEffect(() => {
    if (measuredWith.current === perRow) return;
    measuredWith.current = perRow;
    virtualizer.measure();
  }, [perRow, virtualizer]);

  // The list's width (columns) and its place in the page (anything above it
  // may grow or shrink: a notice, a filter line); measured before paint.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => {
      const box = list.getBoundingClientRect();
      // Not drawn (printing shows another list): keep the layout it had.
      if (box.width === 0) return;
      place.current = { width: box.width, scrollMargin: Math.round(box.top + window.scrollY) };
      setWidth(place.current.width);
      setScrollMargin(place.current.scrollMargin);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  // Back to where the list was left; then remember the place until the next visit.
  useLayoutEffect(() => {
    const start = restore?.scrollY ?? 0;
    if (window.scrollY !== start) window.scrollTo(0, start);
    // Read on each scroll, not at unmount: by then the next screen may already have moved the window.
    let scrollY = window.scrollY;
    const keep = () => {
      scrollY = window.scrollY;
    };
    window.addEventListener('scroll', keep, { passive: true });
    return () => {
      window.removeEventListener('scroll', keep);
      remembered.set(listKey, { scrollY, ...place.current, rows: virtualizer.takeSnapshot() });
    };
  }, [listKey, restore, virtualizer]);

  const rowOf = (target: EventTarget | null) => {
    const row = target instanceof Element ? target.closest<HTMLElement>('[data-index]') : null;
    return row ? Number(row.dataset.index) : null;
  };
  const onFocus = (event: FocusEvent) => {
    focusedRow.current = rowOf(event.target);
    const path: number[] = [];
    let node = event.target as Element;
    for (; node.parentElement && !node.hasAttribute('data-index'); node = node.parentElement)
      path.unshift([...node.parentElement.children].indexOf(node));
    focused.current = { key: (node as HTMLElement).dataset.key, path };
  };
  const onBlur = (event: FocusEvent) => {
    if (!listRef.current?.contains(event.relatedTarget as Node | null)) focusedRow.current = null;
  };

  return (
    <div
      ref={listRef}
      role={rows ? 'rowgroup' : 'list'}
      aria-label={label}
      className={`relative ${className}`}
      style={{ height: virtualizer.getTotalSize() }}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const first = row.index * perRow;
        return (
          <div
            key={reuseRows ? `place-${row.index}` : row.key}
            data-index={row.index}
            data-key={row.key}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full"
            style={{
              transform: `translateY(${row.start - scrollMargin}px)`,
              gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
              columnGap: gap,
            }}
          >
            {/* A grid cell, so the card fills the row's height as in a plain CSS grid. */}
            {items.slice(first, first + perRow).map((item, column) =>
              rows ? (
                <div key={getKey(item)} role="row" aria-rowindex={rows.firstIndex + first} className={rows.className}>
                  {renderItem(item, first)}
                </div>
              ) : (
                <div
                  key={reuseRows ? column : getKey(item)}
                  role="listitem"
                  aria-setsize={items.length}
                  aria-posinset={first + column + 1}
                  className="grid min-w-0"
                >
                  {renderItem(item, first + column)}
                </div>
              ),
            )}
          </div>
        );
      })}
    </div>
  );
}
