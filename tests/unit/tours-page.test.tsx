// @vitest-environment jsdom
/**
 * The Tours screen's list on a real local mirror (fake-indexeddb), at a
 * fixed afternoon: the latest done rounds first with 'Show all', and the
 * missed rounds folded and not drawn until opened.
 */
import '../support/browser-globals.ts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { DataProvider } from '../../src/data/DataProvider.tsx';
import { userDatabase } from '../../src/data/mirror/db.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { roundsBoard } from '../../src/domain/tourBoard.ts';
import { ToursPage } from '../../src/features/tours/ToursPage.tsx';
import { formatTime } from '../../src/ui/format.ts';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { tourRecord } from '../support/records.ts';

const COMMUNITY = 'community000001';
// 15:00 in New York (the default zone): the shift began at midnight, sixty rounds ago.
const NOW = Date.parse('2026-11-25T20:00:00Z');
const tour = tourRecord({ community: COMMUNITY, created: '2026-10-01 00:00:00.000Z' });

beforeAll(() => {
  // Nothing listens on port 9: the engine's requests fail at once.
  pb.baseURL = 'http://127.0.0.1:9';
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  pb.authStore.clear();
});

test('the latest five done rounds, newest first, then all of them; missed rounds folded and drawn once opened', async () => {
  const id = 'officer00000001';
  const db = userDatabase(id);
  const started = roundsBoard([tour], [], [], { zone: DEFAULT_CALL_SETTINGS.timeZone, now: NOW })
    .map((r) => r.round.startsAt)
    .filter((at) => at <= NOW - 60 * 60_000);
  // The rounds that have closed (their half hour, and half an hour late): the eight latest walked in full, the rest missed.
  const walked = started.slice(-8);
  await db.tours.put(tour as never);
  await db.checkpoints.put({ id: 'checkpoint00001', community: COMMUNITY, name: 'Front gate' } as never);
  await db.tour_walks.bulkPut(
    walked.map((at, n) => ({
      id: `walk${String(n).padStart(11, '0')}`,
      community: COMMUNITY,
      tour: tour.id,
      officer: id,
      round_start: pbDate(new Date(at)),
      started_at: pbDate(new Date(at + 60_000)),
      ended_at: pbDate(new Date(at + 10 * 60_000)),
      end_reason: '',
    })) as never,
  );
  await db.checkpoint_scans.bulkPut(
    walked.map((at, n) => ({
      id: `scan${String(n).padStart(11, '0')}`,
      community: COMMUNITY,
      walk: `walk${String(n).padStart(11, '0')}`,
      checkpoint: 'checkpoint00001',
      officer: id,
      scanned_at: pbDate(new Date(at + 5 * 60_000)),
    })) as never,
  );
  pb.authStore.save('test-token', {
    id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    type: 'regular',
    community: COMMUNITY,
    first_name: 'Ana',
    last_name: 'Reyes',
  });
  render(
    <ToastProvider>
      <MemoryRouter>
        <DataProvider pb={pb} userId={id}>
          <ToursPage />
        </DataProvider>
      </MemoryRouter>
    </ToastProvider>,
  );

  const doneHeading = await screen.findByRole('heading', { name: 'Done (8)', level: 3 });
  const doneList = within(doneHeading.parentElement!).getByRole('list');
  const names = (list: HTMLElement) =>
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.getAttribute('data-round'));
  const label = (at: number) => `Perimeter ${formatTime(new Date(at))}`;
  const newestFirst = [...walked].reverse().map(label);
  expect(names(doneList)).toEqual(newestFirst.slice(0, 5));
  await userEvent.click(screen.getByRole('button', { name: 'Show all 8 done rounds' }));
  expect(names(doneList)).toEqual(newestFirst);

  const missedCount = started.length - walked.length;
  const summary = screen.getByText(`Missed (${missedCount})`);
  const details = summary.closest('details')!;
  expect(details.open).toBe(false);
  expect(within(details).queryAllByRole('listitem')).toHaveLength(0);
  await userEvent.click(summary);
  expect(await within(details).findAllByRole('listitem')).toHaveLength(missedCount);
});
