/**
 * Which server holds an account, asked at sign-in (src/data/auth.ts) and
 * before a password reset. With one server that is always the page's own;
 * behind a proxy of several (src/api/baseUrl.ts) it is a community's path.
 */
import { apiBaseUrl, serverPathOfCommunity, validServerPath } from '../api/baseUrl.ts';
import { clientForServerPath } from '../api/client.ts';

/** The server path of the community the page's link names (`/?c=palm-grove`); null without one. */
export function linkServerPath(search = globalThis.location?.search ?? ''): string | null {
  return serverPathOfCommunity(new URLSearchParams(search).get('c'));
}

/**
 * The server that holds `email`'s account (src/api/baseUrl.ts): the one of
 * the community the officer's link names, else the directory route's
 * answer. With one server the route answers '' (this server) for every
 * address; behind a proxy of several it answers a community's path for
 * every address too, a made-up one for an unknown address, so it tells no
 * one who has an account. A server from before the route (404) is its own.
 */
export function serverPathFor(email: string): Promise<string> {
  const asked = email.trim().toLowerCase();
  if (serverAsked?.email !== asked) {
    const answer = askServerPath(email);
    serverAsked = { email: asked, answer };
    // A failed answer is asked again at the next try, not kept.
    answer.catch(() => {
      if (serverAsked?.answer === answer) serverAsked = undefined;
    });
  }
  return serverAsked.answer;
}

/** The last address asked about and its answer: asked once the e-mail is typed, used by the sign-in. */
let serverAsked: { email: string; answer: Promise<string> } | undefined;

/** Asks for an address's server ahead of the sign-in; its errors wait for the sign-in to say them. */
export function findServerEarly(email: string): void {
  if (email.includes('@')) serverPathFor(email).catch(() => undefined);
}

/** PocketBase's reset e-mail, from the server that holds the address (it answers the same whether it is a user or not). */
export async function requestPasswordReset(email: string): Promise<void> {
  await clientForServerPath(await serverPathFor(email))
    .collection('users')
    .requestPasswordReset(email);
}

async function askServerPath(email: string): Promise<string> {
  const fromLink = linkServerPath();
  if (fromLink !== null) return fromLink;
  const response = await fetch(`${apiBaseUrl(globalThis.location?.origin ?? '', '')}/api/scms/directory`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (response.status === 404) return '';
  if (!response.ok) throw new Error(`The directory answered ${response.status}`);
  const answer = (await response.json().catch(() => null)) as { server?: unknown } | null;
  const server = validServerPath(answer?.server);
  if (server === null) throw new Error('The directory answered a server the app does not know');
  return server;
}
