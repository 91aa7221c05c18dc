/**
 * Whether a CSS media query matches now, following the window as it is
 * resized: for layouts that differ by more than CSS can say (a table at a
 * desk, cards on a phone). Without `matchMedia` (tests without a layout)
 * it never matches, so such a screen shows its small-screen layout.
 */
import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's `lg` breakpoint: a desk's window, not a phone or a tablet held upright. */
export const DESK_QUERY = '(min-width: 1024px)';

const mediaList = (query: string): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = mediaList(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => mediaList(query)?.matches ?? false,
    () => false,
  );
}
