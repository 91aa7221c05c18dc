/**
 * Whether the browser keeps this origin's storage (the mirror and, above
 * all, the outbox of work not yet sent) when the device runs low on space.
 * Without persistence a browser may evict the whole origin under storage
 * pressure; with it, only the person can clear it.
 *
 * The app asks at sign-in (DataProvider) and again once installed (the
 * `appinstalled` event): Chromium grants persistence to installed apps
 * without a prompt. The answer is kept here for the sync panel
 * (src/app/StorageStatus.tsx), with the space used and left; the hint on
 * how to keep the data after a refusal is shown once, remembered on the
 * device.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';

/** null: not known yet, or the browser has no storage manager. */
let kept: boolean | null = null;
const listeners = new Set<() => void>();

function setKept(value: boolean | null): void {
  if (value === kept) return;
  kept = value;
  listeners.forEach((listener) => listener());
}

/** Asks the browser to keep this origin's data (no prompt in Chromium; Firefox may ask) and keeps the answer. */
export async function askToKeepStorage(): Promise<boolean | null> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return null;
  try {
    const answer = (await storage.persisted?.()) || (await storage.persist());
    setKept(answer);
    return answer;
  } catch (error) {
    console.warn('Asking for persistent storage failed:', error);
    return null;
  }
}

/** Asks at once, and again when the app is installed to the home screen; returns the stop function. */
export function keepStorage(): () => void {
  if (typeof window === 'undefined') return () => {};
  void askToKeepStorage();
  const installed = () => void askToKeepStorage();
  window.addEventListener('appinstalled', installed);
  return () => window.removeEventListener('appinstalled', installed);
}

/** The browser's last answer on keeping the data; asks what it is now (no prompt) when not asked yet. */
export function useStorageKept(): boolean | null {
  const value = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => kept,
  );
  useEffect(() => {
    if (kept !== null) return;
    navigator.storage
      ?.persisted?.()
      .then((answer) => kept === null && setKept(answer))
      .catch(() => {});
  }, []);
  return value;
}

export interface StorageSpace {
  usage: number;
  quota: number;
}

/** The space this origin uses and may use, read again whenever `refresh` changes; null while unknown. */
export function useStorageSpace(refresh: unknown): StorageSpace | null {
  const [space, setSpace] = useState<StorageSpace | null>(null);
  useEffect(() => {
    let live = true;
    navigator.storage
      ?.estimate?.()
      .then(({ usage, quota }) => {
        if (live && usage !== undefined && quota !== undefined) setSpace({ usage, quota });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [refresh]);
  return space;
}

const HINT_KEY = 'scms.storage-hint-shown';

/** Whether the hint on keeping the data was shown on this device already. */
export function storageHintShown(): boolean {
  try {
    return localStorage.getItem(HINT_KEY) === 'yes';
  } catch {
    return false;
  }
}

export function rememberStorageHintShown(): void {
  try {
    localStorage.setItem(HINT_KEY, 'yes');
  } catch {
    // Private mode without storage: the hint may show again; nothing is lost.
  }
}
