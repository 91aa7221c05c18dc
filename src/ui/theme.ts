/**
 * Night mode: which theme the app shows. The choice (System, Light, Dark)
 * belongs to the device, not to a user: it is kept in localStorage, which a
 * sign-out does not clear (src/data/mirror/wipe.ts clears the mirror only), so an
 * officer's phone stays dark for whoever signs in next.
 *
 * 'system' follows the phone's dark setting through CSS alone
 * (`color-scheme: light dark` in src/index.css); Light and Dark set
 * data-theme on <html>, which pins the color-scheme.
 */
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

const STORAGE_KEY = 'scms.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const listeners = new Set<() => void>();

function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}

export function storedThemeChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isThemeChoice(value) ? value : 'system';
  } catch {
    // Storage refused (a private window with storage off): the system's setting.
    return 'system';
  }
}

function systemIsDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** The theme the screen shows now. */
export function shownTheme(choice: ThemeChoice = storedThemeChoice()): 'light' | 'dark' {
  if (choice === 'system') return systemIsDark() ? 'dark' : 'light';
  return choice;
}

/** Puts the stored choice on <html>. Called before the first render (src/main.tsx), so a pinned theme does not flash the other. */
export function applyStoredTheme(): void {
  showTheme(storedThemeChoice());
}

function showTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Not kept on the device.
  }
  // Shown even when storage refused it: it then lasts for this page.
  showTheme(choice);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', listener);
  // Another tab of the app chose a theme.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    applyStoredTheme();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored choice, re-rendering when it changes. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, storedThemeChoice, () => 'system');
}

/** The theme shown, re-rendering when the choice or the system's setting changes (for what CSS cannot colour: the charts). */
export function useShownTheme(): 'light' | 'dark' {
  return useSyncExternalStore(
    subscribe,
    () => shownTheme(),
    () => 'light',
  );
}
