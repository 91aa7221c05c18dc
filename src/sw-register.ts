/**
 * Registers the service worker (sw/sw.ts, built to /sw.js) in production
 * builds and tells the UI when a new version is waiting. The dev server
 * has no worker: it would serve stale code from the precache.
 */
import { Workbox } from 'workbox-window';
import { currentUserRecord, onSignedInChange } from './data/auth.ts';
import { USER_MESSAGE } from './domain/imageCache.ts';

type Listener = (waiting: boolean) => void;

const UPDATE_CHECK_INTERVAL_MS = 60 * 60_000;

let workbox: Workbox | undefined;
let waiting = false;
let reloadWhenControlled = false;
const listeners = new Set<Listener>();

function setWaiting(value: boolean): void {
  waiting = value;
  for (const listener of listeners) listener(value);
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || workbox) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  // Also fires for a worker that was already waiting when the page loaded.
  workbox.addEventListener('waiting', () => setWaiting(true));
  workbox.addEventListener('controlling', () => {
    // Only the tab whose user chose "Reload" reloads; other open tabs keep
    // their banner (and maybe a half-written form) until their user chooses.
    if (reloadWhenControlled) window.location.reload();
  });
  void workbox.register();
  // An installed app may stay open for days without a navigation that would check.
  window.setInterval(() => void workbox?.update(), UPDATE_CHECK_INTERVAL_MS);
}

/** Activates the waiting worker and reloads once it controls the page. */
export async function applyUpdate(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!workbox || !registration?.waiting) {
    // Another tab already activated it: this page just needs the new code.
    window.location.reload();
    return;
  }
  reloadWhenControlled = true;
  workbox.messageSkipWaiting();
}

export function isUpdateWaiting(): boolean {
  return waiting;
}

export function onUpdateWaiting(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tells the worker who is signed in (null: nobody) now, on every sign-in,
 * session change or sign-out, and whenever a new worker takes the page: it
 * keeps each user's images in that user's own cache and, with nobody signed
 * in, caches none.
 */
export function announceSignedInUser(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const post = () =>
    navigator.serviceWorker.controller?.postMessage({ type: USER_MESSAGE, userId: currentUserRecord()?.id ?? null });
  post();
  onSignedInChange(post);
  navigator.serviceWorker.addEventListener('controllerchange', post);
}
