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
 * Recycled rows (`reuseRows`): a row whose items stay on screen when the
 * items change keeps its elements (moved into place); a row whose items
 * left hands its elements to a row that came in (scrolling builds rows as
 * keyed rows do), which React then draws
 * with its new items, changing the words and attributes that differ,
 * instead of taking one tree of elements down and building another for
 * the browser to style and lay out. A keystroke of the Homes search brings
 * new homes into most places at 5,000 homes and keeps most of them at
 * 20,000: recycling serves both. State inside an item must therefore be
 * keyed by the item itself (the caller's job). The keyboard focus moves
 * with its item's elements, or leaves the list when they are handed to
 * another item, as it would with keyed rows, rather than stay on a control
 * that now shows another item.
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
  /** Rows leaving the screen hand their elements to rows coming in (see above). */
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
  // With reuseRows, the key of that row (its first item's): the focus stays only with it (below).
  const focusedKey = useRef<string>(undefined);

  // reuseRows: which elements (a slot) draw which row, from one render to the next.
  const [pool] = useState(newSlotPool);

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

  // Recycled rows (reuseRows), after each commit: a row showing other items than when it was last
  // measured is measured again (its ref is called at its mount only). A row whose items stay keeps
  // its elements, so the focus goes with them; the focus on elements handed to other items leaves
  // the list (as it would with its row taken down) rather than stay on a control of other items.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!reuseRows || !list) return;
    for (const row of list.children as HTMLCollectionOf<HTMLElement>) {
      if (row.dataset.measured === row.dataset.key) continue;
      row.dataset.measured = row.dataset.key;
      // This element is the virtualizer's for this row now, no more for the one that left (whose next
      // element would make it stop watching this one's size); measured at once, even while scrolling.
      for (const [key, element] of virtualizer.elementsCache)
        if (element === row) virtualizer.elementsCache.delete(key);
      virtualizer.elementsCache.set(row.dataset.key!, row);
      virtualizer.resizeItem(
        Number(row.dataset.index),
        virtualizer.options.measureElement(row, undefined, virtualizer),
      );
    }
    const active = document.activeElement as HTMLElement | null;
    const row = active && list.contains(active) ? active.closest<HTMLElement>('[data-index]') : null;
    if (row && row.dataset.key !== focusedKey.current) active!.blur();
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
    focusedKey.current = (event.target as Element).closest<HTMLElement>('[data-index]')?.dataset.key;
  };
  const onBlur = (event: FocusEvent) => {
    if (!listRef.current?.contains(event.relatedTarget as Node | null)) focusedRow.current = null;
  };

  const virtualRows = virtualizer.getVirtualItems();
  const slots = reuseRows ? assignSlots(pool, virtualRows, items) : null;

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
      {virtualRows.map((row, place) => {
        const first = row.index * perRow;
        return (
          <div
            key={slots ? slots[place] : row.key}
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

/** The slots of recycled rows: the slot of each row drawn last time, for which items, and the next new slot's number. */
interface SlotPool {
  of: Map<VirtualItem['key'], number>;
  items: readonly unknown[] | null;
  next: number;
}

function newSlotPool(): SlotPool {
  return { of: new Map(), items: null, next: 0 };
}

/**
 * Each row's slot: its own if it was drawn last time; else, when the items
 * changed, one a row that left has freed; else a new one (a row scrolled
 * into view is built as with keyed rows). Slots are unique within a
 * render, so they serve as React keys. (A render React discards leaves the
 * pool as it assigned it: the next render may then reuse fewer elements,
 * never give two rows one key.)
 */
function assignSlots(pool: SlotPool, rows: readonly VirtualItem[], items: readonly unknown[]): number[] {
  const slots = rows.map((row) => pool.of.get(row.key));
  const kept = new Set(slots);
  const freed = items === pool.items ? [] : [...pool.of.values()].filter((slot) => !kept.has(slot));
  const assigned = slots.map((slot) => slot ?? freed.shift() ?? pool.next++);
  pool.of = new Map(rows.map((row, i) => [row.key, assigned[i]!]));
  pool.items = items;
  return assigned;
}
