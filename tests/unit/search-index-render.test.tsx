// @vitest-environment jsdom
/**
 * A list screen draws a change of the search index in a later task, not in
 * the task in which the index applied it (useSearchIndex's transition):
 * loading 5,000 homes and drawing the screen in one task was one long task,
 * Lighthouse's Total Blocking Time on Homes and Reports.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { useHouses } from '../../src/data/resources/homes.ts';
import { overlayOf } from '../../src/data/mirror/loadPageStore.ts';
import { searchIndexOf } from '../../src/data/mirror/searchIndex.ts';
import { houseRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let dbCount = 0;
const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;

beforeEach(() => {
  // React's own scheduling, as in the browser (act() would flush every update at once).
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  db = new ScmsDatabase(`search-index-render-test-${++dbCount}`);
  engine.current = { db };
});

afterEach(() => {
  cleanup();
  db.close();
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
});

function HomeCount() {
  const homes = useHouses('');
  return <p>{homes === undefined ? 'loading' : `homes: ${homes.length}`}</p>;
}

test('a change of the homes list is drawn after the task that applied it, then shown', async () => {
  render(<HomeCount />);
  await screen.findByText('homes: 0');
  const index = searchIndexOf(db);
  const seen: string[] = [];
  // Called after the screen's own listener, in the index's task; the check runs after every
  // microtask queued so far, where a synchronous render (useSyncExternalStore) would have drawn.
  const unsubscribe = index.subscribe('homes', () =>
    queueMicrotask(() => seen.push(screen.getByText(/^homes: /).textContent!)),
  );
  await db.houses.put(houseRecord());
  await screen.findByText('homes: 1');
  unsubscribe();
  expect(seen).toEqual(['homes: 0']);
});

test('while a first load stores pages, a change that follows a drawing closely is held back, and drawn when the load ends', async () => {
  render(<HomeCount />);
  await screen.findByText('homes: 0');
  const overlay = overlayOf(db);
  overlay.activeLoads++;
  // The first change is drawn at once; the next, within the second, is held back...
  await db.houses.put(houseRecord({ id: 'loadhouse000001' }));
  await screen.findByText('homes: 1');
  await db.houses.put(houseRecord({ id: 'loadhouse000002' }));
  await searchIndexOf(db).idle();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(screen.getByText(/^homes: /).textContent).toBe('homes: 1');
  // ...and drawn once the load ends (at the latest a second after the first drawing).
  overlay.activeLoads--;
  await screen.findByText('homes: 2', undefined, { timeout: 10_000 });
});
