/**
 * A clock for the screens: the current time, again every `intervalMs`
 * (a minute by default), so "3 minutes ago" stays true while a list is open
 * and a house check that becomes due at midnight shows without a reload.
 */
import { useEffect, useState } from 'react';

export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
