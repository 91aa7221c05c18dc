/**
 * The device's position for reports (src/data/devicePosition.ts):
 * asked once and the answer remembered, a refusal never asked again unless
 * the browser now allows it, saving never waiting long, and the fix found
 * when the form opened used when a newer one is slow.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

type Success = (position: { coords: { latitude: number; longitude: number; accuracy: number } }) => void;
type Failure = (error: { code: number; PERMISSION_DENIED: number }) => void;

const PERMISSION_DENIED = 1;
const TIMEOUT = 3;
const HERE = { latitude: 26.70512, longitude: -80.03641, accuracy: 12 };

let store: Map<string, string>;
let permission: PermissionState | null;
let answer: (success: Success, failure: Failure) => void;
let asked: number;

async function load() {
  vi.resetModules();
  return import('../../src/data/devicePosition.ts');
}

beforeEach(() => {
  store = new Map();
  permission = 'prompt';
  asked = 0;
  answer = (success) => success({ coords: HERE });
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
  });
  vi.stubGlobal('navigator', {
    permissions: { query: async () => (permission ? { state: permission } : Promise.reject(new Error('no'))) },
    geolocation: {
      getCurrentPosition: (success: Success, failure: Failure) => {
        asked++;
        answer(success, failure);
      },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the device position', () => {
  test('allowed: the position with its accuracy, and the answer remembered', async () => {
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toEqual(HERE);
    expect(store.get('scms.position-answer')).toBe('allowed');
  });

  test('refused: null (not an error), remembered, and never asked again while the browser only offers to ask', async () => {
    answer = (_, failure) => failure({ code: PERMISSION_DENIED, PERMISSION_DENIED });
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toBeNull();
    expect(store.get('scms.position-answer')).toBe('denied');
    const before = asked;
    await expect(locateForReport()()).resolves.toBeNull();
    expect(asked).toBe(before);
  });

  test('refused before, but allowed since in the browser settings: used again', async () => {
    store.set('scms.position-answer', 'denied');
    permission = 'granted';
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toEqual(HERE);
  });

  test('blocked in the browser: never asked, remembered', async () => {
    permission = 'denied';
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toBeNull();
    expect(asked).toBe(0);
    expect(store.get('scms.position-answer')).toBe('denied');
  });

  test('no fix (indoors, a timeout) is not remembered: the next report looks again', async () => {
    answer = (_, failure) => failure({ code: TIMEOUT, PERMISSION_DENIED });
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toBeNull();
    expect(store.has('scms.position-answer')).toBe(false);
    answer = (success) => success({ coords: HERE });
    await expect(locateForReport()()).resolves.toEqual(HERE);
  });

  test('no Geolocation API, or no Permissions API: null, or asked as usual', async () => {
    permission = null;
    let { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toEqual(HERE);
    vi.stubGlobal('navigator', {});
    ({ locateForReport } = await load());
    await expect(locateForReport()()).resolves.toBeNull();
  });

  test('a position the server would refuse is dropped, the report kept', async () => {
    answer = (success) => success({ coords: { ...HERE, accuracy: 5_000_000 } });
    const { locateForReport } = await load();
    await expect(locateForReport()()).resolves.toBeNull();
  });

  test('saving waits at most a moment: an unanswered prompt gives null after the wait', async () => {
    vi.useFakeTimers();
    answer = () => undefined; // the officer has not answered the browser's question
    const { locateForReport, SAVE_WAIT_MS } = await load();
    const position = locateForReport()();
    let settled: unknown = 'pending';
    void position.then((value) => (settled = value));
    await vi.advanceTimersByTimeAsync(SAVE_WAIT_MS - 10);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(20);
    expect(settled).toBeNull();
  });

  test('a slow new fix at saving time falls back to the one found when the form opened', async () => {
    vi.useFakeTimers();
    const { locateForReport } = await load();
    const forReport = locateForReport(); // the form opens: found at once
    await vi.advanceTimersByTimeAsync(0);
    answer = () => undefined; // at saving time the device has no new fix
    const position = forReport(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(position).resolves.toEqual(HERE);
  });
});
