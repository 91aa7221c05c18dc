// @vitest-environment jsdom
/**
 * useHistoryRange on a real local mirror (fake-indexeddb) with a stand-in
 * engine: a period the mirror holds is ready without a request; a period
 * it lacks is loaded for exactly the histories the screen shows (the
 * rounds a day wider each side), offline it says so, and a failed load can
 * be tried again.
 */
import '../support/browser-globals.ts';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { setSyncState, userDatabase, type ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { historyRangesKey } from '../../src/data/sync/pull.ts';
import type { HistoryCollection } from '../../src/data/sync/ranges.ts';
import {
  SHOWS_REPORTS,
  SHOWS_REPORTS_AND_ROUNDS,
  SHOWS_ROUNDS,
  useHistoryRange,
} from '../../src/data/resources/historyRange.ts';

type Load = (collections: readonly HistoryCollection[], from: Date, to: Date) => Promise<void>;
const fake = vi.hoisted(() => ({
  db: null as unknown as ScmsDatabase,
  status: { online: true, syncing: false, authRequired: false, lastError: null } as EngineStatus,
  load: null as unknown as Load,
}));
// One engine for every render, as the app's provider gives.
const engine = vi.hoisted(() => ({
  get db() {
    return fake.db;
  },
  subscribe: () => () => undefined,
  getStatus: () => fake.status,
  loadHistoryRange: (collections: readonly HistoryCollection[], from: Date, to: Date) =>
    fake.load(collections, from, to),
}));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine }));

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-25T20:00:00Z');
const RECENT = { from: NOW - 8 * DAY, to: Number.MAX_SAFE_INTEGER };
let run = 0;

beforeEach(async () => {
  fake.db = userDatabase(`rangetest${String(++run).padStart(6, '0')}`);
  fake.status = { online: true, syncing: false, authRequired: false, lastError: null };
  // As after a first sync: the recent part of each history.
  for (const collection of SHOWS_REPORTS_AND_ROUNDS)
    await setSyncState(fake.db, historyRangesKey(collection), [RECENT]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const day = (daysAgo: number) => [new Date(NOW - daysAgo * DAY - DAY / 2), new Date(NOW - daysAgo * DAY)] as const;

test('a period the mirror holds is ready and asks nothing', async () => {
  const load = vi.fn<Load>(async () => undefined);
  fake.load = load;
  const [from, to] = day(2);
  const { result } = renderHook(() => useHistoryRange(from, to, SHOWS_REPORTS_AND_ROUNDS));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(result.current.state).toBe('ready');
  expect(load).not.toHaveBeenCalled();
});

test("an older day's rounds: loaded for the rounds alone, then ready once the mirror records the range", async () => {
  const load = vi.fn<Load>(async (collections, from, to) => {
    for (const collection of collections)
      await setSyncState(fake.db, historyRangesKey(collection), [
        { from: from.getTime() - DAY, to: to.getTime() + DAY },
        RECENT,
      ]);
  });
  fake.load = load;
  const [from, to] = day(20);
  const { result } = renderHook(() => useHistoryRange(from, to, SHOWS_ROUNDS));
  await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
  await waitFor(() => expect(result.current.state).toBe('ready'));
  expect(load).toHaveBeenCalledTimes(1);
  expect(load.mock.calls[0]![0]).toEqual(['tour_walks', 'checkpoint_scans']);
  expect(load.mock.calls[0]!.slice(1)).toEqual([from, to]);
});

test('a day whose reports are held but not a day either side of its rounds is still loading', async () => {
  fake.load = () => new Promise(() => undefined);
  // The day itself is just inside the recent part; its rounds reach a day further back.
  const from = new Date(RECENT.from + 60_000);
  const to = new Date(RECENT.from + DAY / 2);
  const reports = renderHook(() => useHistoryRange(from, to, SHOWS_REPORTS));
  const rounds = renderHook(() => useHistoryRange(from, to, SHOWS_ROUNDS));
  await waitFor(() => expect(rounds.result.current.state).toBe('loading'));
  expect(reports.result.current.state).toBe('ready');
});

test('offline, an older period says so and asks nothing; a failed load can be tried again', async () => {
  const load = vi.fn<Load>(async () => {
    throw new Error('offline');
  });
  fake.load = load;
  fake.status = { ...fake.status, online: false };
  const [from, to] = day(40);
  const offline = renderHook(() => useHistoryRange(from, to, SHOWS_REPORTS));
  await waitFor(() => expect(offline.result.current.state).toBe('offline'));
  expect(load).not.toHaveBeenCalled();
  offline.unmount();

  fake.status = { ...fake.status, online: true };
  const failing = renderHook(() => useHistoryRange(from, to, SHOWS_REPORTS));
  await waitFor(() => expect(failing.result.current.state).toBe('failed'));
  expect(load).toHaveBeenCalledTimes(1);
  act(() => failing.result.current.retry());
  await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  await waitFor(() => expect(failing.result.current.state).toBe('failed'));
});
