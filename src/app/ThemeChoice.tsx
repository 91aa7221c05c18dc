/**
 * The menu's choice of theme (System, Light, Dark; src/ui/theme.ts): three
 * radio buttons in the phone's drawer, a menu behind a moon in the desktop's
 * top bar. Both sit on the black bar, so they use its white-on-black colours.
 */
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { chooseTheme, THEME_CHOICES, THEME_LABELS, useThemeChoice } from '../ui/theme.ts';
import { MoonIcon } from '../ui/icons.tsx';

/** The drawer's: a labelled group of three radio buttons. */
export function ThemeRadios() {
  const chosen = useThemeChoice();
  return (
    <div role="radiogroup" aria-labelledby="theme-choice-label" className="w-full">
      <span id="theme-choice-label" className="mb-1 block text-sm text-white/70">
        Theme
      </span>
      <div className="grid grid-cols-3 gap-1 rounded border border-white/40 p-1">
        {THEME_CHOICES.map((choice) => (
          <button
            key={choice}
            type="button"
            role="radio"
            aria-checked={chosen === choice}
            onClick={() => chooseTheme(choice)}
            className={`min-h-11 rounded px-2 text-sm font-medium ${chosen === choice ? 'bg-white text-black' : 'text-white hover:bg-white/15'}`}
          >
            {THEME_LABELS[choice]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The desktop top bar's: a moon that opens the three choices. */
export function ThemeMenu() {
  const chosen = useThemeChoice();
  return (
    <Menu as="div" className="relative">
      <MenuButton
        title="Theme"
        aria-label={`Theme: ${THEME_LABELS[chosen]}`}
        className="flex size-10 items-center justify-center rounded text-white hover:bg-white/15"
      >
        <MoonIcon />
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="scheme-light z-50 mt-1 w-36 rounded border border-white/40 bg-black p-1 text-white shadow-lg focus:outline-none"
      >
        {THEME_CHOICES.map((choice) => (
          <MenuItem key={choice}>
            <button
              type="button"
              role="menuitemradio"
              aria-checked={chosen === choice}
              onClick={() => chooseTheme(choice)}
              className="flex w-full items-center justify-between rounded px-3 py-2 text-left text-sm data-focus:bg-white/15"
            >
              {THEME_LABELS[choice]}
              {chosen === choice && <span aria-hidden="true">✓</span>}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
