// @vitest-environment jsdom
/**
 * The shift's rounds kept in memory (src/data/resources/shiftBoard.ts):
 * the same board as a read of the mirror, only the walks around now read,
 * following the mirror's changes with the screen open and closed, let go
 * of at log out, and painted in the first render of a screen opened again.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { releaseMemoryViews } from '../../src/data/mirror/memoryViews.ts';
import { shiftBoardOf, useToursBoard } from '../../src/data/resources/shiftBoard.ts';
import { boardOf, queryToursBoard, type ToursBoard } from '../../src/data/resources/tourBoards.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { roundsBoard } from '../../src/domain/tourBoard.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { ErrorBoundary } from '../../src/ui/ErrorBoundary.tsx';
import { tourRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

const COMMUNITY = 'community000001';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ZONE = DEFAULT_CALL_SETTINGS.timeZone;

const tour = tourRecord({
  community: COMMUNITY,
  checkpoints: ['checkpoint00001', 'checkpoint00002'],
  created: pbDate(new Date(Date.now() - 30 * DAY)),
  updated: pbDate(new Date(Date.now() - 30 * DAY)),
});
const checkpoints = tour.checkpoints.map((id, n) => ({ id, community: COMMUNITY, name: `Gate ${n + 1}` }));
const officer = { id: 'officer00000001', first_name: 'Ana', last_name: 'Reyes', community: COMMUNITY };

let walkCount = 0;
function walkOf(roundStart: number, ended = true) {
  const id = `walk${String(++walkCount).padStart(11, '0')}`;
  return {
    id,
    community: COMMUNITY,
    tour: tour.id,
    officer: officer.id,
    round_start: pbDate(new Date(roundStart)),
    started_at: pbDate(new Date(roundStart + 60_000)),
    ended_at: ended ? pbDate(new Date(roundStart + 20 * 60_000)) : '',
    end_reason: '',
  };
}
function scanOf(walk: { id: string; round_start: string }, checkpoint: string, minutes: number) {
  return {
    id: `scan${walk.id.slice(4)}${checkpoint.slice(-1)}`,
    community: COMMUNITY,
    walk: walk.id,
    checkpoint,
    officer: officer.id,
    scanned_at: pbDate(new Date(Date.parse(walk.round_start.replace(' ', 'T')) + minutes * 60_000)),
  };
}

/** The rounds of the shift under way now that have started, newest first. */
function startedRounds(): number[] {
  return roundsBoard([tour], [], [], { zone: ZONE, now: Date.now() })
    .map((r) => r.round.startsAt)
    .filter((at) => at <= Date.now() - 60_000)
    .reverse();
}

const summary = (board: ToursBoard) =>
  board.rounds.map((r) => [r.round.startsAt, r.outcome.status, r.walks.map((w) => w.id), r.outcome.scanned]);

let db: ScmsDatabase;
let dbCount = 0;
beforeEach(async () => {
  db = new ScmsDatabase(`shift-board-${++dbCount}-${Date.now()}`);
  await db.open();
  engine.current = { db };
  await db.tours.put(tour as never);
  await db.checkpoints.bulkPut(checkpoints as never);
  await db.users.put(officer as never);
});
afterEach(() => {
  cleanup();
  releaseMemoryViews(db);
  db.close();
});

describe('the shift board in memory', () => {
  test('makes the board a read of the mirror makes, from the walks around now only', async () => {
    const [latest, earlier] = startedRounds();
    const history = Array.from({ length: 20 }, (_, n) => walkOf(Date.now() - (5 + n) * DAY));
    const recent = [latest, earlier].filter((at): at is number => at !== undefined).map((at) => walkOf(at));
    await db.tour_walks.bulkPut([...history, ...recent] as never);
    await db.checkpoint_scans.bulkPut(
      [...history, ...recent].flatMap((walk) => [scanOf(walk, tour.checkpoints[0]!, 3)]) as never,
    );

    const view = shiftBoardOf(db, COMMUNITY);
    view.ensure(Date.now());
    await waitFor(() => expect(view.snapshot()).toBeDefined());
    const inputs = view.snapshot()!;
    const now = Date.now();
    expect(summary(boardOf(inputs, { now }))).toEqual(
      summary(await queryToursBoard(db, { community: COMMUNITY, now })),
    );
    expect(inputs.walks.map((w) => w.id).sort()).toEqual(recent.map((w) => w.id).sort());
    expect(inputs.zone).toBe(ZONE);
  });

  test('follows the mirror: at once while the screen listens, once changes pause while it does not', async () => {
    const latest = startedRounds()[0]!;
    const view = shiftBoardOf(db, COMMUNITY);
    const heard = vi.fn();
    const stop = view.subscribe(heard);
    view.ensure(Date.now());
    await waitFor(() => expect(view.snapshot()).toBeDefined());
    expect(boardOf(view.snapshot()!, { now: Date.now() }).rounds.every((r) => r.walks.length === 0)).toBe(true);

    const walk = walkOf(latest, false);
    await db.tour_walks.put(walk as never);
    await db.checkpoint_scans.put(scanOf(walk, tour.checkpoints[1]!, 1) as never);
    await waitFor(() =>
      expect(
        boardOf(view.snapshot()!, { now: Date.now() }).rounds.find((r) => r.round.startsAt === latest)?.outcome.scanned,
      ).toEqual([tour.checkpoints[1]]),
    );
    expect(heard).toHaveBeenCalled();

    // The screen closed: a change is read once the mirror is quiet, ready for the next visit.
    stop();
    await db.checkpoint_scans.put(scanOf(walk, tour.checkpoints[0]!, 1) as never);
    const scannedNow = () =>
      boardOf(view.snapshot()!, { now: Date.now() })
        .rounds.find((r) => r.round.startsAt === latest)!
        .outcome.scanned.sort();
    await waitFor(() => expect(scannedNow()).toEqual([...tour.checkpoints].sort()), { timeout: 10_000 });
  });

  test('is let go of at log out: nothing held, and a new session makes a new one', async () => {
    const view = shiftBoardOf(db, COMMUNITY);
    view.ensure(Date.now());
    await waitFor(() => expect(view.snapshot()).toBeDefined());
    releaseMemoryViews(db);
    expect(view.snapshot()).toBeUndefined();
    expect(shiftBoardOf(db, COMMUNITY)).not.toBe(view);
  });
});

function Rounds() {
  const board = useToursBoard({ community: COMMUNITY, now: Date.now() });
  return <p>{board ? `${board.rounds.length} rounds` : 'Loading rounds'}</p>;
}

test('a screen opened again paints the rounds in its first render', async () => {
  const first = render(<Rounds />);
  expect(screen.getByText('Loading rounds')).toBeDefined();
  const shown = await screen.findByText(/^\d+ rounds$/);
  const text = shown.textContent;
  first.unmount();

  // No waiting: the first render has them.
  render(<Rounds />);
  expect(screen.getByText(text!)).toBeDefined();
});

test("a read that fails shows in the screen's error boundary; the screen opened again reads again", async () => {
  const failing = vi.spyOn(db.tours, 'toArray').mockRejectedValueOnce(new Error('The disk is full'));
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const screenOf = () => (
    <ErrorBoundary name="Tours" fallback={() => <p>Something went wrong</p>}>
      <Rounds />
    </ErrorBoundary>
  );
  const first = render(screenOf());
  await screen.findByText('Something went wrong');
  first.unmount();
  failing.mockRestore();

  render(screenOf());
  expect(await screen.findByText(/^\d+ rounds$/)).toBeDefined();
  errors.mockRestore();
});
