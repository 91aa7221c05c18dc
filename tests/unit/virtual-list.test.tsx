// @vitest-environment jsdom
/**
 * src/ui/VirtualList.tsx with a layout jsdom does not have: rows 100 px tall
 * a card, the list 1,000 px wide and 200 px below the top of the page, a
 * 768 px window. Only the rows on screen plus the overscan are drawn; every
 * item says its place in the whole list; rows hold as many columns as the
 * width asks for, and are measured again when that changes; the row with
 * the focus stays drawn; the scroll position is remembered per list until
 * forgotten.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetScrollPosition, VirtualList } from '../../src/ui/VirtualList.tsx';

const ROW = 100;
const LIST_TOP = 200;
const WIDTH = 1_000;
/** The list's width now (a test narrows it). */
let width = WIDTH;
const items = Array.from({ length: 1_000 }, (_, n) => ({ id: `item${n + 1}`, name: `Item ${n + 1}` }));

const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
const boundingRect = HTMLElement.prototype.getBoundingClientRect;

beforeAll(() => {
  // A drawn row is 100 px tall; the list is 1,000 px wide, 200 px down the page.
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      // A row of several cards is as tall as their stack would be on a phone: heights depend on the columns.
      return this.dataset.index === undefined ? 0 : ROW * this.childElementCount;
    },
  });
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    if (this.getAttribute('role') !== 'list') return boundingRect.call(this);
    const top = LIST_TOP - window.scrollY;
    return {
      x: 0,
      y: top,
      top,
      left: 0,
      width,
      height: 0,
      right: width,
      bottom: top,
      toJSON: () => ({}),
    } as DOMRect;
  };
});

afterAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offsetHeight);
  HTMLElement.prototype.getBoundingClientRect = boundingRect;
});

/** jsdom does not scroll: the window's offset is set by hand and announced, as a browser would. */
function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  window.dispatchEvent(new Event('scroll'));
}

/** Where the window was asked to scroll (scrollTo(x, y) or scrollTo({ top })). */
let scrolledTo: number[] = [];
beforeEach(() => {
  width = WIDTH;
  Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  scrolledTo = [];
  window.scrollTo = ((first: number | ScrollToOptions, y?: number) => {
    const top = typeof first === 'number' ? y! : (first.top ?? window.scrollY);
    scrolledTo.push(top);
    scrollWindowTo(top);
  }) as typeof window.scrollTo;
  forgetScrollPosition('test');
});

afterEach(() => cleanup());

function renderList(columns?: (width: number) => number) {
  return render(
    <VirtualList
      listKey="test"
      label="Things"
      items={items}
      getKey={(item) => item.id}
      estimateRowHeight={() => ROW}
      columns={columns}
      overscan={2}
      renderItem={(item) => <button type="button">{item.name}</button>}
    />,
  );
}

const shown = () => screen.getAllByRole('listitem').map((item) => Number(item.getAttribute('aria-posinset')));

/** A list whose rows keep their elements by place (a search's list), of these items. */
function ReusedList({ of }: { of: typeof items }) {
  return (
    <VirtualList
      listKey="test"
      label="Things"
      items={of}
      getKey={(item) => item.id}
      estimateRowHeight={() => ROW}
      overscan={2}
      reuseRows
      renderItem={(item) => (
        <div>
          <span>{item.name}</span>
          <button type="button">Open {item.name}</button>
        </div>
      )}
    />
  );
}

describe('VirtualList', () => {
  it('draws the rows on screen plus the overscan, each item with its place in the whole list', () => {
    renderList();
    const list = screen.getByRole('list', { name: 'Things' });
    // Rows 1 to 6 fill the 568 px of the window below the list's top; two more below.
    expect(shown()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const item of screen.getAllByRole('listitem')) expect(item.getAttribute('aria-setsize')).toBe('1000');
    // The list is as tall as all its rows, so the page scrolls as if every row were there.
    expect(list.style.height).toBe(`${items.length * ROW}px`);
  });

  it('follows the window as it scrolls', () => {
    renderList();
    act(() => scrollWindowTo(LIST_TOP + 500 * ROW));
    const drawn = shown();
    expect(drawn[0]).toBe(499);
    expect(drawn).toContain(501);
    expect(drawn).toContain(508);
    expect(drawn.length).toBeLessThan(15);
  });

  it('puts as many items in a row as the columns of the width', () => {
    renderList((width) => (width >= 900 ? 3 : 1));
    const drawn = shown();
    // Eight rows of three.
    expect(drawn).toEqual(Array.from({ length: 24 }, (_, n) => n + 1));
    const firstRow = screen.getAllByRole('listitem').slice(0, 3);
    expect(new Set(firstRow.map((item) => item.parentElement))).toHaveProperty('size', 1);
    expect(firstRow[0]!.parentElement!.style.gridTemplateColumns).toBe('repeat(3, minmax(0, 1fr))');
  });

  it('measures the rows again when the width changes the columns', () => {
    // jsdom has no ResizeObserver: this one reports every element it watches when told to.
    const observers: Array<{ callback: ResizeObserverCallback; targets: Set<Element> }> = [];
    const saved = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      private readonly watched = { callback: null as unknown as ResizeObserverCallback, targets: new Set<Element>() };
      constructor(callback: ResizeObserverCallback) {
        this.watched.callback = callback;
        observers.push(this.watched);
      }
      observe(target: Element) {
        this.watched.targets.add(target);
      }
      unobserve(target: Element) {
        this.watched.targets.delete(target);
      }
      disconnect() {
        this.watched.targets.clear();
      }
    } as unknown as typeof ResizeObserver;
    const resized = () =>
      act(() => {
        for (const { callback, targets } of observers)
          callback(
            [...targets].map((target) => ({ target }) as ResizeObserverEntry),
            null as unknown as ResizeObserver,
          );
      });
    try {
      const { container } = renderList((w) => (w >= 900 ? 3 : 1));
      const secondRowAt = () => container.querySelector<HTMLElement>('[data-index="1"]')!.style.transform;
      resized();
      // Rows of three, the first measured 300 px tall.
      expect(secondRowAt()).toBe(`translateY(${3 * ROW}px)`);
      // Scrolled away from the rows measured, then one column: the rows drawn now are 100 px each...
      act(() => scrollWindowTo(LIST_TOP + 300 * ROW));
      width = 500;
      resized();
      expect(screen.getAllByRole('listitem')[0]!.parentElement!.style.gridTemplateColumns).toBe(
        'repeat(1, minmax(0, 1fr))',
      );
      // ...and so are the rows above them: none keeps the height it was measured with three.
      const list = container.querySelector<HTMLElement>('[role="list"]')!;
      // (Heights kept from three columns, 300 px, would make it taller than a hundred per item.)
      expect(parseFloat(list.style.height)).toBeLessThanOrEqual(items.length * ROW);
    } finally {
      globalThis.ResizeObserver = saved;
    }
  });

  it('keeps the row with the keyboard focus drawn when it scrolls away', () => {
    renderList();
    const first = screen.getByRole('button', { name: 'Item 2' });
    act(() => first.focus());
    act(() => scrollWindowTo(LIST_TOP + 500 * ROW));
    expect(shown()).toContain(2);
    expect(document.activeElement).toBe(first);
    // Once the focus leaves the list, the row goes with the next scroll.
    act(() => first.blur());
    act(() => scrollWindowTo(LIST_TOP + 600 * ROW));
    expect(shown()).not.toContain(2);
  });

  describe('recycled rows (reuseRows)', () => {
    const endingIn = (digit: string) => items.filter((item) => item.name.endsWith(digit));
    const buttons = () => screen.getAllByRole('button').map((button) => button.textContent);
    const rowElements = (container: HTMLElement) => [...container.querySelectorAll('[data-index]')];

    it("draws a search's new items with the elements already there; a row still on screen keeps its own", () => {
      const view = render(<ReusedList of={items} />);
      const before = rowElements(view.container);
      const seventh = screen.getByText('Item 7').closest('[data-index]');
      view.rerender(<ReusedList of={endingIn('7')} />);
      expect(buttons().slice(0, 3)).toEqual(['Open Item 7', 'Open Item 17', 'Open Item 27']);
      // No row element built anew: the ones that drew items 1 to 8 draw 7, 17, 27...
      const after = rowElements(view.container);
      expect(after).toHaveLength(before.length);
      expect(after.every((row) => before.includes(row))).toBe(true);
      // ...and item 7's row is the same element, moved to the top.
      expect(screen.getByText('Item 7').closest('[data-index]')).toBe(seventh);
      expect(seventh?.getAttribute('data-index')).toBe('0');
      expect(seventh?.getAttribute('data-key')).toBe('item7');
      // Each row measured for what it now shows: the rows stack 100 px apart.
      expect(after.map((row) => (row as HTMLElement).style.transform)).toEqual(
        after.map((row) => `translateY(${Number(row.getAttribute('data-index')) * ROW}px)`),
      );
    });

    it('scrolling builds the rows that come into view, as keyed rows do', () => {
      const view = render(<ReusedList of={items} />);
      const before = rowElements(view.container);
      act(() => scrollWindowTo(LIST_TOP + 500 * ROW));
      const after = rowElements(view.container);
      expect(after.some((row) => before.includes(row))).toBe(false);
      expect(shown()).toContain(501);
    });

    it('the keyboard focus follows its item to its new place, and leaves the list when the item is gone', () => {
      const view = render(<ReusedList of={items} />);
      act(() => screen.getByRole('button', { name: 'Open Item 5' }).focus());
      // Item 5 moves from the fifth row to the first.
      view.rerender(<ReusedList of={endingIn('5')} />);
      expect(document.activeElement?.textContent).toBe('Open Item 5');
      expect(document.activeElement?.closest('[data-index]')?.getAttribute('data-index')).toBe('0');
      // Gone from the list: the focus is on nothing of another item.
      view.rerender(<ReusedList of={endingIn('6')} />);
      expect(screen.getByRole('list').contains(document.activeElement)).toBe(false);
    });
  });

  it('opens where it was left, until the position is forgotten', () => {
    const first = renderList();
    act(() => scrollWindowTo(LIST_TOP + 300 * ROW));
    first.unmount();
    // Another screen: the window is back at the top.
    scrollWindowTo(0);

    const second = renderList();
    expect(window.scrollY).toBe(LIST_TOP + 300 * ROW);
    expect(shown()).toContain(301);
    second.unmount();

    forgetScrollPosition('test');
    scrollWindowTo(0);
    scrolledTo = [];
    renderList();
    expect(scrolledTo.every((top) => top === 0)).toBe(true);
    expect(window.scrollY).toBe(0);
    expect(shown()[0]).toBe(1);
  });
});
