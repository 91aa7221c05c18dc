/**
 * An alert and its steps in words: the alarm banners, the Safety screen and
 * the daily activity report say them the same way.
 */
import type { AlertEventKind, AlertKind } from '../domain/safetySchemas.ts';

export const ALERT_KIND_WORDS: Record<AlertKind, string> = { panic: 'Panic', missed_check_in: 'Missed check-in' };

/** After the person's name: 'Tom Lee responding', 'Ana Reyes is safe', 'Maria Diaz resolved'. */
export const STEP_WORDS: Record<AlertEventKind, string> = {
  responding: 'responding',
  safe: 'is safe',
  resolved: 'resolved',
};

/** An alert's state: on, or how it ended. */
export function alertStateWords(alert: { ended_at: string; end_kind: string }): string {
  if (alert.ended_at === '') return 'On';
  return alert.end_kind === 'safe' ? 'Safe' : 'Resolved';
}
