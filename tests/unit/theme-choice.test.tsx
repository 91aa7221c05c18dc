// @vitest-environment jsdom
/**
 * Night mode's choice (src/ui/theme.ts, src/app/ThemeChoice.tsx): System
 * follows the phone's dark setting, Light and Dark pin the theme on <html>,
 * and the choice is kept on the device across reloads; the drawer's radios
 * and the desktop's moon both set it.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ThemeMenu, ThemeRadios } from '../../src/app/ThemeChoice.tsx';
import { applyStoredTheme, chooseTheme, shownTheme, storedThemeChoice, useShownTheme } from '../../src/ui/theme.ts';

/** A stand-in for the phone's dark setting: matchMedia answers it and tells listeners when it changes. */
function systemDarkSetting(initial: boolean) {
  let dark = initial;
  const listeners = new Set<() => void>();
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === '(prefers-color-scheme: dark)' && dark;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return (next: boolean) => {
    dark = next;
    for (const listener of listeners) listener();
  };
}

function ShownTheme() {
  return <p>shown: {useShownTheme()}</p>;
}

beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});
afterEach(cleanup);

describe('the stored choice', () => {
  test('nothing chosen is System: no data-theme, the shown theme is the phone’s', () => {
    systemDarkSetting(true);
    applyStoredTheme();
    expect(storedThemeChoice()).toBe('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(shownTheme()).toBe('dark');
  });

  test('Dark and Light pin <html> and are there after a reload; System takes the pin away', () => {
    systemDarkSetting(false);
    chooseTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    // A reload: a fresh <html>, the stored choice applied before the first render.
    delete document.documentElement.dataset.theme;
    applyStoredTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(shownTheme()).toBe('dark');
    chooseTheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    chooseTheme('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(localStorage.length).toBe(0);
  });

  test('a stored value that is no choice counts as System', () => {
    localStorage.setItem('scms.theme', 'sepia');
    expect(storedThemeChoice()).toBe('system');
  });
});

describe('the menu', () => {
  test('the drawer’s radios show the choice and set it; the charts’ theme follows, and the system’s switch under System', async () => {
    const systemTurns = systemDarkSetting(false);
    const user = userEvent.setup();
    render(
      <>
        <ThemeRadios />
        <ShownTheme />
      </>,
    );
    const group = screen.getByRole('radiogroup', { name: 'Theme' });
    expect(group).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('shown: light')).toBeTruthy();

    act(() => systemTurns(true));
    expect(screen.getByText('shown: dark')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(screen.getByRole('radio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('radio', { name: 'System' }).getAttribute('aria-checked')).toBe('false');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(screen.getByText('shown: light')).toBeTruthy();
  });

  test('the desktop’s moon names the choice, opens the three, and closes on Escape', async () => {
    systemDarkSetting(false);
    const user = userEvent.setup();
    render(<ThemeMenu />);
    const moon = screen.getByRole('button', { name: 'Theme: System' });
    expect(moon.getAttribute('aria-expanded')).toBe('false');
    await user.click(moon);
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeTruthy();
    expect(document.documentElement.dataset.theme).toBe('dark');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });
});
