/**
 * The rounds of the shift under way, kept in memory once the Tours screen
 * has been opened, as the search index keeps the homes: the screen opened
 * again paints its rounds in its first frame instead of after a read of
 * the mirror (about 40 ms of a 130 ms tap at the large community,
 * docs/performance.md).
 *
 * What is kept are the board's inputs (tourBoards.ts: the zone, tours,
 * checkpoints, and the walks of the rounds around now with their scans and
 * officers), read with some hours to spare on either side, so the screen's
 * clock moves on for hours before another read; the board itself is made
 * from them at each render (src/domain/tourBoard.ts). The inputs follow the
 * mirror through Dexie's `storagemutated` event: read again at once while
 * the screen is open, and once changes pause while it is not (a first load
 * writes thousands of walks in pages). Let go of at log out
 * (mirror/memoryViews.ts).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { boardReach } from '../../domain/tourBoard.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { ScmsDatabase } from '../mirror/db.ts';
import { memoryView, type MemoryView } from '../mirror/memoryViews.ts';
import { touchesTables, useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import { BOARD_TABLES } from './tourTables.ts';
import {
  boardOf,
  inputsCover,
  queryToursBoard,
  readBoardInputs,
  type BoardInputs,
  type ToursBoard,
} from './tourBoards.ts';

/** How far past the board's reach, on either side, the walks are read. */
const SPARE_MS = 6 * 60 * 60 * 1000;
/** With the screen closed, the inputs are read again once the mirror's changes pause this long. */
const QUIET_MS = 1000;

export class ShiftBoardView implements MemoryView {
  private inputs: BoardInputs | undefined;
  /** The last read's error, numbered: a screen shows only those that came after it opened. */
  private failure: { error: unknown; number: number } | undefined;
  private failures = 0;
  private stale = true;
  private running = false;
  private again = false;
  private disposed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: ScmsDatabase,
    private readonly community: string,
  ) {
    Dexie.on.storagemutated.subscribe(this.onMutated);
  }

  /** The inputs last read; undefined before the first read ends. */
  readonly snapshot = (): BoardInputs | undefined => this.inputs;

  /** How many reads have failed so far: a screen opened now marks where its own errors begin. */
  failureCount(): number {
    return this.failures;
  }

  /** The error of the last read, if it failed after the first `seen` failures (an older one was another screen's). */
  errorAfter(seen: number): unknown {
    return this.failure && this.failure.number > seen ? this.failure.error : undefined;
  }

  /** Calls back after each read; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Reads the mirror again when it changed since the last read, or when the board at `now` reaches past it. */
  ensure(now: number): void {
    if (this.stale || !this.inputs || !inputsCover(this.inputs, { now })) void this.read();
  }

  dispose(): void {
    this.disposed = true;
    Dexie.on.storagemutated.unsubscribe(this.onMutated);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.inputs = undefined;
    this.listeners.clear();
  }

  private readonly onMutated = (parts: ObservabilitySet) => {
    if (this.disposed || !touchesTables(parts, this.db.name, BOARD_TABLES)) return;
    this.stale = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listeners.size > 0) {
      void this.read();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read();
    }, QUIET_MS);
  };

  /** One read at a time; changes during a read make one more read after it, not one per change. */
  private async read(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        this.stale = false;
        const now = Date.now();
        const inputs = await readBoardInputs(this.db, this.community, (tours, zone) => {
          const reach = boardReach(tours, { zone, now });
          return { from: reach.from - SPARE_MS, to: reach.to + SPARE_MS };
        });
        if (this.disposed) return;
        this.inputs = inputs;
        this.failure = undefined;
        for (const listener of [...this.listeners]) listener();
      } while (this.again && !this.disposed);
    } catch (error) {
      // A log out closes the database under a read: nothing to show any more.
      if (this.disposed || (error as Error | undefined)?.name === 'DatabaseClosedError') return;
      this.stale = true;
      this.failure = { error, number: ++this.failures };
      for (const listener of [...this.listeners]) listener();
    } finally {
      this.running = false;
    }
  }
}

/** The shift's rounds of a community's mirror (one per database instance). */
export function shiftBoardOf(db: ScmsDatabase, community: string): ShiftBoardView {
  return memoryView(db, `shift-board:${community}`, () => new ShiftBoardView(db, community));
}

const noSubscription = () => () => undefined;
const noInputs = () => undefined;

/**
 * The board of the shift under way at `now`, or of `day`: redrawn whenever
 * the zone, a tour, checkpoint, walk or scan changes (this phone's or,
 * through sync, anyone's). The shift comes from the rounds kept in memory;
 * a past day is read from the mirror.
 */
export function useToursBoard(options: { community: string; now: number; day?: number }): ToursBoard | undefined {
  const { db } = useSyncEngine();
  const { community, now, day } = options;
  const view = day === undefined ? shiftBoardOf(db, community) : undefined;
  const inputs = useSyncExternalStore(view?.subscribe ?? noSubscription, view?.snapshot ?? noInputs);
  // A read that failed before this screen opened is tried again (ensure: the mirror is stale after a failure).
  const [failuresBefore] = useState(() => view?.failureCount() ?? 0);
  useEffect(() => view?.ensure(now), [view, now]);
  // Inputs read hours ago may not hold every walk of the shift now: the screen waits for the next read.
  const shift = useMemo(
    () => (inputs && inputsCover(inputs, { now }) ? boardOf(inputs, { now }) : undefined),
    [inputs, now],
  );
  const past = useMirrorQuery(
    db,
    BOARD_TABLES,
    async () => (day === undefined ? undefined : queryToursBoard(db, { community, now, day })),
    [community, now, day],
  );
  const failure = view?.errorAfter(failuresBefore);
  if (failure !== undefined) throw failure;
  return day === undefined ? shift : past;
}
