/**
 * The device's position for the reports and house checks it makes
 * (docs/product.md#incident-reports), from the browser's Geolocation API, when the officer allows it.
 *
 * - Asked once: the officer's answer is remembered on the device. After a
 *   "no" the app never asks again (the browser may forget a dismissed
 *   prompt; the officer should not be asked at every house); a permission
 *   granted later in the browser's settings is used.
 * - Saving never waits long: a form starts looking for the position when
 *   it opens (useReportPosition), and saving waits at most a moment more
 *   for a newer fix. No position is not an error: the report is saved
 *   without it.
 */
import { useCallback, useEffect, useRef } from 'react';
import { toReportPosition, type ReportPosition } from '../domain/whereAndWhen.ts';

const ANSWER_KEY = 'scms.position-answer';
type Answer = 'allowed' | 'denied';

/** How long the device may look for a fix (GPS in a garage can take long). */
const LOCATE_TIMEOUT_MS = 8_000;
/** A fix the browser took this recently still says where the officer stands; an older one may be the last house. */
const FRESH_MS = 10_000;
/** The most saving waits for a fix still being looked for. */
export const SAVE_WAIT_MS = 1_500;

function rememberedAnswer(): Answer | null {
  try {
    const value = localStorage.getItem(ANSWER_KEY);
    return value === 'allowed' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

function remember(answer: Answer): void {
  try {
    localStorage.setItem(ANSWER_KEY, answer);
  } catch {
    // Private mode without storage: the browser's own permission still applies.
  }
}

async function permissionState(): Promise<PermissionState | null> {
  try {
    return (await navigator.permissions?.query({ name: 'geolocation' }))?.state ?? null;
  } catch {
    return null;
  }
}

/** Whether to look for a position now: never after the officer said no, unless the browser now allows it. */
async function mayLocate(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return false;
  const state = await permissionState();
  if (state === 'granted') return true;
  if (state === 'denied') {
    remember('denied');
    return false;
  }
  return rememberedAnswer() !== 'denied';
}

function locate(): Promise<ReportPosition | null> {
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (found) => {
        remember('allowed');
        resolve(toReportPosition(found.coords));
      },
      (error) => {
        // Only a refusal is remembered; no fix (indoors, a timeout) is tried again next time.
        if (error.code === error.PERMISSION_DENIED) remember('denied');
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: FRESH_MS },
    );
  });
}

let inFlight: Promise<ReportPosition | null> | null = null;

/** Looks for the position (one search at a time); the first time, the browser asks the officer. */
function findPosition(): Promise<ReportPosition | null> {
  inFlight ??= mayLocate()
    .then((allowed) => (allowed ? locate() : null))
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, giveUp]).finally(() => clearTimeout(timer));
}

/**
 * Starts looking for the position when a form opens, and returns what gives
 * the position when the form is saved: a new fix if one comes within
 * `maxWaitMs`, else the one found when the form opened (the officer has
 * been at this home since), else null.
 */
export function locateForReport(): (maxWaitMs?: number) => Promise<ReportPosition | null> {
  let openedFix: ReportPosition | null = null;
  void findPosition().then((position) => {
    openedFix = position;
  });
  return async (maxWaitMs = SAVE_WAIT_MS) => (await within(findPosition(), maxWaitMs)) ?? openedFix;
}

/** For a form that saves a report: starts looking when it opens; call the result when saving. */
export function useReportPosition(): () => Promise<ReportPosition | null> {
  const position = useRef<ReturnType<typeof locateForReport> | null>(null);
  useEffect(() => {
    position.current = locateForReport();
  }, []);
  return useCallback(() => (position.current ?? locateForReport())(), []);
}
