/**
 * The token the server handed out a moment ago (a sign-in). The session
 * check (src/data/sync/session.ts) asks the server whether a token still
 * holds before the app pulls with it; the first check right after the
 * sign-in knows the answer, and asking cost a round trip on the way from
 * the sign-in to the first home. Later checks ask (a session revoked a
 * minute after the sign-in is still found out when the phone comes back
 * online).
 *
 * No imports: the login page's code records its sign-in here.
 */
let handedOut: { token: string; at: number } | null = null;

/** How long after the sign-in its first check may take the answer as given. */
export const FRESH_TOKEN_MS = 10_000;

export function noteTokenHandedOut(token: string, now = Date.now()): void {
  handedOut = token ? { token, at: now } : null;
}

/** True once for a token handed out within FRESH_TOKEN_MS; every later check asks the server. */
export function takeFreshToken(token: string, now = Date.now()): boolean {
  const fresh = handedOut !== null && handedOut.token === token && now - handedOut.at < FRESH_TOKEN_MS;
  handedOut = null;
  return fresh;
}
