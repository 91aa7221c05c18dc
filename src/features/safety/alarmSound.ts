/**
 * The alarm's sound while an alert waits for this user's answer: two tones
 * every second from the Web Audio API (no file to fetch or cache). A browser
 * that has not seen a tap on the page yet keeps audio suspended: the banner
 * still shows, and the sound starts at the next tap.
 */
import { useEffect } from 'react';

const BEEP_EVERY_MS = 1_000;

export function useAlarmSound(on: boolean): void {
  useEffect(() => {
    if (!on || typeof window.AudioContext !== 'function') return;
    let context: AudioContext;
    try {
      context = new AudioContext();
    } catch {
      return;
    }
    const beep = () => {
      if (context.state === 'suspended') void context.resume().catch(() => undefined);
      if (context.state !== 'running') return;
      for (const [offset, frequency] of [
        [0, 880],
        [0.25, 660],
      ] as const) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.frequency.value = frequency;
        gain.gain.value = 0.2;
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(context.currentTime + offset);
        oscillator.stop(context.currentTime + offset + 0.2);
      }
    };
    beep();
    const timer = window.setInterval(beep, BEEP_EVERY_MS);
    return () => {
      window.clearInterval(timer);
      void context.close().catch(() => undefined);
    };
  }, [on]);
}
