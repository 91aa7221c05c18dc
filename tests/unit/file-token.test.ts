// @vitest-environment jsdom
/**
 * The file token the images share (src/data/fileToken.ts): one request for
 * any number of images, renewed a minute before it expires while an image
 * is shown and never after the last one goes, none offline (tried again
 * later and at once when the browser is back online), and never shown for
 * another user than the one it was given to.
 */
import PocketBase, { ClientResponseError, type AuthRecord } from 'pocketbase';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FileTokenSource, withFileToken } from '../../src/data/fileToken.ts';

const LIFETIME_S = 180;

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A file token as PocketBase makes them: its payload names the user and the expiry. */
function fileToken(userId: string, serial: number, lifetimeS = LIFETIME_S): string {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ id: userId, type: 'file', collectionId: 'users', exp: Math.floor(Date.now() / 1000) + lifetimeS })}.sig${serial}`;
}

function signIn(pb: PocketBase, userId: string): void {
  pb.authStore.save(`auth-token-of-${userId}`, { id: userId, collectionName: 'users' } as unknown as AuthRecord);
}

const offline = () =>
  new ClientResponseError({
    url: 'http://x.test/api/files/token',
    status: 0,
    response: {},
    isAbort: false,
    originalError: new TypeError('Failed to fetch'),
  });

let pb: PocketBase;
let source: FileTokenSource;
let getToken: ReturnType<typeof vi.fn>;
let serial = 0;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-24T09:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  localStorage.clear();
  pb = new PocketBase('http://x.test');
  signIn(pb, 'user00000000001');
  serial = 0;
  getToken = vi.fn(async () => fileToken(pb.authStore.record!.id, ++serial));
  pb.files.getToken = getToken as typeof pb.files.getToken;
  source = new FileTokenSource(pb);
});

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the pending promises (the token request) settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('one token for every image on screen', () => {
  test('three images subscribed at once make one request and all see the same token', async () => {
    const unsubscribe = [source.subscribe(() => {}), source.subscribe(() => {}), source.subscribe(() => {})];
    expect(source.getSnapshot()).toEqual({ token: null, settled: false });
    await settle();
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(source.getSnapshot()).toEqual({ token: expect.stringMatching(/\.sig1$/), settled: true });
    for (const stop of unsubscribe) stop();
  });

  test('renewed a minute before it expires, while shown; not after the last image went', async () => {
    const changes = vi.fn();
    const stop = source.subscribe(changes);
    await settle();
    const first = source.getSnapshot().token;
    await vi.advanceTimersByTimeAsync((LIFETIME_S - 61) * 1000);
    expect(getToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(getToken).toHaveBeenCalledTimes(2);
    const second = source.getSnapshot().token;
    expect(second).not.toBe(first);
    expect(second).toMatch(/\.sig2$/);
    expect(changes).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(10 * LIFETIME_S * 1000);
    expect(getToken).toHaveBeenCalledTimes(2);
  });

  test('a new image after a while gets a fresh token when the kept one is about to expire', async () => {
    const stop = source.subscribe(() => {});
    await settle();
    stop();
    await vi.advanceTimersByTimeAsync((LIFETIME_S - 30) * 1000);
    source.subscribe(() => {});
    await settle();
    expect(getToken).toHaveBeenCalledTimes(2);
    expect(source.getSnapshot().token).toMatch(/\.sig2$/);
  });
});

describe('offline and back', () => {
  test("offline: settled with no token (images ask the worker's cache); tried again later", async () => {
    getToken.mockRejectedValueOnce(offline());
    source.subscribe(() => {});
    await settle();
    expect(source.getSnapshot()).toEqual({ token: null, settled: true });
    await vi.advanceTimersByTimeAsync(30_000);
    await settle();
    expect(getToken).toHaveBeenCalledTimes(2);
    expect(source.getSnapshot()).toEqual({ token: expect.stringMatching(/\.sig1$/), settled: true });
  });

  test('failed fetches are tried again after pauses that double from 5 s to 30 s, and start over after a success', async () => {
    getToken.mockRejectedValue(offline());
    source.subscribe(() => {});
    await settle();
    const callsAfter = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await settle();
      return getToken.mock.calls.length;
    };
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(await callsAfter(4_900)).toBe(1);
    expect(await callsAfter(100)).toBe(2);
    expect(await callsAfter(9_900)).toBe(2);
    expect(await callsAfter(100)).toBe(3);
    expect(await callsAfter(20_000)).toBe(4);
    expect(await callsAfter(30_000)).toBe(5);
    expect(await callsAfter(29_900)).toBe(5);
    expect(await callsAfter(100)).toBe(6);
    getToken.mockReset();
    getToken.mockImplementationOnce(async () => fileToken(pb.authStore.record!.id, 1)).mockRejectedValue(offline());
    expect(await callsAfter(30_000)).toBe(1);
    expect(source.getSnapshot().token).toMatch(/\.sig1$/);
    // The renewal a minute before expiry fails: the next try is 5 s later again.
    expect(await callsAfter((LIFETIME_S - 60) * 1000)).toBe(2);
    expect(await callsAfter(5_000)).toBe(3);
  });

  test('back online: a token at once, not at the next retry', async () => {
    getToken.mockRejectedValueOnce(offline());
    source.subscribe(() => {});
    await settle();
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(getToken).toHaveBeenCalledTimes(2);
    expect(source.getSnapshot().token).toMatch(/\.sig1$/);
  });

  test('a failed renewal keeps a token that is still good, and drops one that expired', async () => {
    source.subscribe(() => {});
    await settle();
    const good = source.getSnapshot().token;
    getToken.mockRejectedValue(offline());
    await vi.advanceTimersByTimeAsync((LIFETIME_S - 59) * 1000);
    await settle();
    expect(source.getSnapshot()).toEqual({ token: good, settled: true });
    await vi.advanceTimersByTimeAsync(90_000);
    await settle();
    expect(source.getSnapshot()).toEqual({ token: null, settled: true });
  });
});

describe('whose token', () => {
  test("another user signing in never sees the previous user's token", async () => {
    const seen: Array<string | null> = [];
    source.subscribe(() => seen.push(source.getSnapshot().token));
    await settle();
    signIn(pb, 'user00000000002');
    expect(source.getSnapshot()).toEqual({ token: null, settled: false });
    await settle();
    const token = source.getSnapshot().token!;
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).id).toBe('user00000000002');
    expect(
      seen.filter(Boolean).map((t) => JSON.parse(Buffer.from(t!.split('.')[1]!, 'base64url').toString()).id),
    ).toEqual(['user00000000001', 'user00000000002']);
  });

  test('a token that arrives after its user signed out is not shown', async () => {
    let answer: (token: string) => void = () => {};
    getToken.mockImplementationOnce(() => new Promise<string>((resolve) => (answer = resolve)));
    source.subscribe(() => {});
    pb.authStore.clear();
    answer(fileToken('user00000000001', 99));
    await settle();
    expect(source.getSnapshot().token).toBeNull();
  });

  test("another user signing in while the first user's token is on its way gets a token of their own", async () => {
    let answer: (token: string) => void = () => {};
    getToken.mockImplementationOnce(() => new Promise<string>((resolve) => (answer = resolve)));
    source.subscribe(() => {});
    await settle();
    signIn(pb, 'user00000000002');
    answer(fileToken('user00000000001', 99));
    await settle();
    expect(getToken).toHaveBeenCalledTimes(2);
    const token = source.getSnapshot().token!;
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).id).toBe('user00000000002');
  });

  test('signing out while the token is on its way: settled with none', async () => {
    let answer: (token: string) => void = () => {};
    getToken.mockImplementationOnce(() => new Promise<string>((resolve) => (answer = resolve)));
    source.subscribe(() => {});
    await settle();
    pb.authStore.clear();
    answer(fileToken('user00000000001', 99));
    await settle();
    expect(source.getSnapshot()).toEqual({ token: null, settled: true });
  });

  test('nobody signed in: no request, no token', async () => {
    pb.authStore.clear();
    source.subscribe(() => {});
    await settle();
    expect(getToken).not.toHaveBeenCalled();
    expect(source.getSnapshot()).toEqual({ token: null, settled: true });
  });
});

test('withFileToken adds the token to a URL with or without a query, and nothing when there is none', () => {
  expect(withFileToken('/api/files/houses/h1/a.png?thumb=400x300', 'a.b.c')).toBe(
    '/api/files/houses/h1/a.png?thumb=400x300&token=a.b.c',
  );
  expect(withFileToken('/api/files/reports/r1/b.png', 'a.b.c')).toBe('/api/files/reports/r1/b.png?token=a.b.c');
  expect(withFileToken('/api/files/reports/r1/b.png', null)).toBe('/api/files/reports/r1/b.png');
});
