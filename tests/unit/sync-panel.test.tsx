// @vitest-environment jsdom
/**
 * The sync badge and its panel: offline the badge counts what waits; the
 * panel's times are the app's 24-hour ones; 'Sync now' pressed offline says
 * why nothing happens instead of doing nothing.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { SyncBadge } from '../../src/app/SyncBadge.tsx';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { enqueue } from '../../src/data/sync/outbox.ts';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { OFFLINE_SYNC_NOW } from '../../src/ui/offlineWords.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let status: EngineStatus;
const syncNow = vi.fn(async () => undefined);

beforeEach(() => {
  db = new ScmsDatabase(`sync-panel-${Math.random().toString(36).slice(2)}`);
  status = { online: false, syncing: false, authRequired: false, lastError: null };
  syncNow.mockClear();
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status, syncNow };
});
afterEach(async () => {
  cleanup();
  await db.delete();
});

async function queueOne(at: Date) {
  await enqueue(
    db,
    {
      userId: 'u1',
      label: 'Report',
      ops: [{ action: 'create', collection: 'reports', id: 'rep000000000001', body: { narative: 'x' } }],
    },
    at,
  );
}

test('offline: the badge counts what waits, the time is 24-hour, and Sync now says why nothing is sent', async () => {
  const user = userEvent.setup();
  await queueOne(new Date(2026, 10, 25, 17, 39, 1));
  render(
    <ToastProvider>
      <SyncBadge />
    </ToastProvider>,
  );
  await user.click(await screen.findByRole('button', { name: 'Sync status: Offline · 1 waiting' }));
  const panel = await screen.findByRole('dialog', { name: 'Sync' });
  expect(within(panel).getByText('Nov 25, 2026 17:39')).toBeTruthy();
  expect(within(panel).queryByText(/PM|AM/)).toBeNull();
  await user.click(within(panel).getByRole('button', { name: 'Sync now' }));
  expect(within(panel).getByRole('status').textContent).toBe(OFFLINE_SYNC_NOW);
  expect(syncNow).not.toHaveBeenCalled();
});

test('online: Sync now syncs and says nothing more', async () => {
  status = { ...status, online: true };
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <SyncBadge />
    </ToastProvider>,
  );
  await user.click(await screen.findByRole('button', { name: /^Sync status:/ }));
  const panel = await screen.findByRole('dialog', { name: 'Sync' });
  await user.click(within(panel).getByRole('button', { name: 'Sync now' }));
  expect(syncNow).toHaveBeenCalledOnce();
  expect(within(panel).queryByText(OFFLINE_SYNC_NOW)).toBeNull();
});
