/**
 * src/api/freshTokens.ts: the first session check right after a sign-in
 * takes the sign-in's answer; every other check asks the server.
 */
import { describe, expect, test } from 'vitest';
import { FRESH_TOKEN_MS, noteTokenHandedOut, takeFreshToken } from '../../src/api/freshTokens.ts';

describe('a token just handed out', () => {
  test('counts as checked once, for its own token, within the window', () => {
    noteTokenHandedOut('token-a', 1_000);
    expect(takeFreshToken('token-b', 1_001)).toBe(false);
    // The miss used it up: the sign-in's answer is taken at the first check or never.
    expect(takeFreshToken('token-a', 1_002)).toBe(false);

    noteTokenHandedOut('token-a', 1_000);
    expect(takeFreshToken('token-a', 1_000 + FRESH_TOKEN_MS - 1)).toBe(true);
    expect(takeFreshToken('token-a', 1_000 + FRESH_TOKEN_MS - 1)).toBe(false);

    noteTokenHandedOut('token-a', 1_000);
    expect(takeFreshToken('token-a', 1_000 + FRESH_TOKEN_MS)).toBe(false);

    noteTokenHandedOut('', 1_000);
    expect(takeFreshToken('', 1_000)).toBe(false);
  });
});
