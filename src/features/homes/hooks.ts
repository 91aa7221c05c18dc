/** The Homes screen's call markers and the words of its disabled call buttons. */
import { useCallback, useEffect, useState } from 'react';

/** The call-in-progress marker is reset by a repeating 20-second timer. */
export const CALL_MARKER_RESET_MS = 20_000;

export interface CallMarkers {
  /** Home id → the id of the call just placed for it from this device ('' if the server named none). */
  marked: ReadonlyMap<string, string>;
  mark: (houseId: string, callId: string) => void;
  /** The mirror has the call now: its own state takes over (cardCallState). */
  settle: (houseId: string, callId: string) => void;
}

/**
 * Homes a call was just placed for from this device. The calls record
 * reaches the mirror a moment later (realtime); until then, and should it
 * not come, this marker shows 'Call in progress...' and the timer clears it.
 * Each new call restarts the timer, so no marker is cleared before 20 s.
 * Once the mirror has the call, the marker has no more to say and goes.
 */
export function useCallMarkers(): CallMarkers {
  const [marked, setMarked] = useState<ReadonlyMap<string, string>>(() => new Map());
  useEffect(() => {
    if (marked.size === 0) return;
    const timer = window.setInterval(() => setMarked(new Map()), CALL_MARKER_RESET_MS);
    return () => window.clearInterval(timer);
  }, [marked]);
  const mark = useCallback(
    (houseId: string, callId: string) => setMarked((current) => new Map(current).set(houseId, callId)),
    [],
  );
  const settle = useCallback(
    (houseId: string, callId: string) =>
      setMarked((current) => {
        if (current.get(houseId) !== callId) return current;
        const next = new Map(current);
        next.delete(houseId);
        return next;
      }),
    [],
  );
  return { marked, mark, settle };
}

/** A home without a phone cannot be called: said on the card before the concerns are chosen, not after. */
export const NO_PHONE_CALL_REASON = 'No phone number to call: add one with Edit.';
