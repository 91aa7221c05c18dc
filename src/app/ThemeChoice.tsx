/**
 * The menu's choice of theme (System, Light, Dark; src/ui/theme.ts): three
 * radio buttons in the phone's drawer, and behind a moon in the desktop's
 * top bar. Both sit on the black bar, so they use its white-on-black colours.
 */
import { useEffect, useRef, useState } from 'react';
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

/**
 * The desktop top bar's: a moon that opens the three choices beneath it. A
 * plain disclosure rather than a menu library: the top bar loads with every
 * screen, so it stays light (scripts/bundle-budget.ts).
 */
export function ThemeMenu() {
  const chosen = useThemeChoice();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        title="Theme"
        aria-label={`Theme: ${THEME_LABELS[chosen]}`}
        aria-expanded={open}
        aria-controls="theme-choice-panel"
        onClick={() => setOpen(!open)}
        className="flex size-9 items-center justify-center rounded text-white hover:bg-white/15"
      >
        <MoonIcon />
      </button>
      {open && (
        <div
          id="theme-choice-panel"
          className="absolute top-full right-0 z-50 mt-2 w-64 rounded border border-white/40 bg-black p-3 shadow-lg"
        >
          <ThemeRadios />
        </div>
      )}
    </div>
  );
}
