/**
 * A time of day typed 24-hour ('21:00'): the browser's time input shows
 * 12-hour AM/PM in a US locale, which the app's times never are.
 */
export const CLOCK_INPUT = {
  type: 'text',
  placeholder: 'HH:MM',
  maxLength: 5,
  autoComplete: 'off',
} as const;
