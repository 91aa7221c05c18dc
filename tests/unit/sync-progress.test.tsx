// @vitest-environment jsdom
/**
 * The first sync's progress on the Homes screen: 'Loading homes… 2,000 of
 * 5,000' while the engine loads the homes, never 'Showing 0 home(s)' or the
 * empty notice of a mirror that is still filling; the list once it is done.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { pb } from '../../src/api/client.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import { syncProgressText } from '../../src/ui/SyncProgress.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { houseRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let status: EngineStatus;
const listeners = new Set<() => void>();
let dbCount = 0;

function setStatus(patch: Partial<EngineStatus>) {
  status = { ...status, ...patch };
  for (const listener of listeners) listener();
}

beforeAll(() => {
  pb.authStore.save('token', { id: 'u1', community: 'c1', collectionId: 'users', collectionName: 'users' });
});

beforeEach(async () => {
  db = new ScmsDatabase(`sync-progress-test-${++dbCount}`);
  status = {
    online: true,
    syncing: true,
    authRequired: false,
    lastError: null,
    loading: { houses: { loaded: 2_000, total: 5_000 } },
  };
  engine.current = {
    db,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getStatus: () => status,
  };
  await db.communities.put({ id: 'c1', name: 'Palm Shores', address: '', created: '', updated: '' });
});

afterEach(() => {
  cleanup();
  listeners.clear();
  db.close();
});

test('the text: thousands separators, and no numbers before the server said the total', () => {
  expect(syncProgressText('homes', { loaded: 2_000, total: 5_000 })).toBe('Loading homes… 2,000 of 5,000');
  expect(syncProgressText('reports', { loaded: 12_500, total: 80_000 })).toBe('Loading reports… 12,500 of 80,000');
  expect(syncProgressText('homes', { loaded: 0, total: null })).toBe('Loading homes…');
});

test('the Homes screen shows the progress while the homes load, then the list', async () => {
  render(
    <MemoryRouter>
      <ToastProvider>
        <HomesPage />
      </ToastProvider>
    </MemoryRouter>,
  );
  expect(await screen.findByText('Loading homes… 2,000 of 5,000')).toBeTruthy();
  expect(screen.queryByText(/Showing \d+ home\(s\)/)).toBeNull();
  expect(screen.queryByText('No homes found')).toBeNull();

  act(() => setStatus({ loading: { houses: { loaded: 4_000, total: 5_000 } } }));
  expect(await screen.findByText('Loading homes… 4,000 of 5,000')).toBeTruthy();

  await db.houses.put(houseRecord());
  act(() => setStatus({ syncing: false, loading: {} }));
  expect(await screen.findByText('Showing 1 home(s)')).toBeTruthy();
  expect(screen.queryByText(/Loading homes…/)).toBeNull();
});
