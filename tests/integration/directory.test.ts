/**
 * Which server holds an account, against real servers: the directory route
 * on a single server (pb_hooks/directory.pb.js), each server's key-guarded
 * lookup, and the directory service in front of two servers behind the
 * cluster's Caddy (server/directory/service.ts, scripts/cluster/caddyfile.ts).
 * An unknown address is told nothing: it gets a community like a known one.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatDirectory } from '../../server/directory/directoryFile.ts';
import { decoyCommunity } from '../../server/directory/service.ts';
import { DIRECTORY_KEY, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';

let cluster: TestCluster;
let single: TestServer;

beforeAll(async () => {
  [cluster, single] = await Promise.all([startTestCluster(), startTestServer()]);
});
afterAll(async () => {
  await cluster?.stop();
  await single?.stop();
});

async function ask(
  base: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> | null; type: string | null }> {
  const response = await fetch(`${base}/api/scms/directory`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: response.status, json, type: response.headers.get('content-type') };
}

function lookup(server: TestServer, email: string, key?: string): Promise<Response> {
  return fetch(`${server.url}/api/scms/directory/lookup?email=${encodeURIComponent(email)}`, {
    headers: key === undefined ? {} : { Authorization: `Bearer ${key}` },
  });
}

const BAD_REQUESTS: Array<[string, unknown, number]> = [
  ['malformed JSON', '{"email": "a@b.example"', 400],
  ['no email', {}, 400],
  ['not an email', { email: 'north director' }, 400],
  ['an email of 255 characters', { email: `${'x'.repeat(243)}@example.com` }, 400],
  ['a number', { email: 7 }, 400],
  ['another field besides', { email: 'a@b.example', server: 'http://elsewhere.example' }, 400],
  ['a body over 1 KiB', { email: 'a@b.example', pad: 'x'.repeat(2000) }, 413],
];

describe('one server', () => {
  test('every address is on this server: the same answer for an account and for no account', async () => {
    const known = await ask(single.url, { email: 'someone@scms.test' });
    expect(known).toEqual({ status: 200, json: { server: '' }, type: 'application/json' });
    expect(await ask(single.url, { email: 'nobody-at-all@nowhere.example' })).toEqual(known);
  });

  test('the lookup does not exist without the directory key: not on a server without one, not with a wrong one', async () => {
    const email = cluster.communities[0].director.email;
    expect((await lookup(single, email, DIRECTORY_KEY)).status).toBe(404);
    expect((await lookup(cluster.servers[0], email)).status).toBe(404);
    expect((await lookup(cluster.servers[0], email, `${DIRECTORY_KEY}x`)).status).toBe(404);
    const answer = await lookup(cluster.servers[0], email.toUpperCase(), DIRECTORY_KEY);
    expect(await answer.json()).toEqual({ community: cluster.communities[0].community.id });
    // The other community's account is not on this server.
    const other = await lookup(cluster.servers[0], cluster.communities[1].director.email, DIRECTORY_KEY);
    expect(await other.json()).toEqual({ community: null });
  });
});

describe('two servers behind the proxy', () => {
  test('an account is sent to its community, whichever server it is on and however its address is written', async () => {
    const [north, south] = cluster.communities;
    expect((await ask(cluster.url, { email: north.regular.email })).json).toEqual({ server: '/c/north' });
    expect((await ask(cluster.url, { email: ` ${south.manager.email.toUpperCase()} ` })).json).toEqual({
      server: '/c/south',
    });
  });

  test('an unknown address gets a community too: the same one every time, in the same shape, spread over both', async () => {
    const known = await ask(cluster.url, { email: cluster.communities[0].director.email });
    const seen = new Set<string>();
    for (let n = 0; n < 16; n++) {
      const email = `unknown-${n}@nowhere.example`;
      const answer = await ask(cluster.url, { email });
      expect(answer.status).toBe(known.status);
      expect(answer.type).toBe(known.type);
      expect(Object.keys(answer.json ?? {})).toEqual(Object.keys(known.json ?? {}));
      expect(answer.json).toEqual({ server: `/c/${decoyCommunity(cluster.entries, email, DIRECTORY_KEY).slug}` });
      expect((await ask(cluster.url, { email: email.toUpperCase() })).json).toEqual(answer.json);
      seen.add(String(answer.json?.server));
    }
    expect(seen).toEqual(new Set(['/c/north', '/c/south']));
  });

  test.each(BAD_REQUESTS)('%s: refused with the same answer as a single server gives', async (_, body, status) => {
    const [fromService, fromServer] = await Promise.all([ask(cluster.url, body), ask(single.url, body)]);
    expect(fromService.status).toBe(status);
    expect(fromService.json).toEqual(fromServer.json);
    expect(fromService.json?.message).toEqual(expect.any(String));
  });

  test("the servers' lookup is not reachable through the proxy, even with the key", async () => {
    const email = encodeURIComponent(cluster.communities[0].director.email);
    for (const prefix of ['/c/north', '']) {
      const response = await fetch(`${cluster.url}${prefix}/api/scms/directory/lookup?email=${email}`, {
        headers: { Authorization: `Bearer ${DIRECTORY_KEY}` },
      });
      expect(response.status, prefix).toBe(404);
      expect(await response.text()).not.toContain(cluster.communities[0].community.id);
    }
  });

  test("each community's path reaches its own server: an account signs in only through its own", async () => {
    const [north, south] = cluster.communities;
    const signIn = (slug: string, email: string) =>
      fetch(`${cluster.url}/c/${slug}/api/collections/users/auth-with-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ identity: email, password: 'patrol-pass-123' }),
      });
    expect((await signIn('north', north.regular.email)).status).toBe(200);
    expect((await signIn('south', south.regular.email)).status).toBe(200);
    expect((await signIn('south', north.regular.email)).status).toBe(400);
    // A community the proxy does not know is a 404, not the app's page standing in for an API answer.
    expect((await fetch(`${cluster.url}/c/elsewhere/api/health`)).status).toBe(404);
    expect((await fetch(`${cluster.url}/c/north/api/health`)).status).toBe(200);
  });

  test('a server that does not answer: an account elsewhere is still found, an unknown address is not guessed', async () => {
    const [, south] = cluster.communities;
    // The directory names a third server that is not there.
    writeFileSync(
      cluster.directoryFile,
      formatDirectory([
        ...cluster.entries,
        { slug: 'west', communityId: 'zzzzzzzzzzzzzzz', server: 'http://127.0.0.1:9' },
      ]),
    );
    try {
      expect((await ask(cluster.url, { email: south.director.email })).json).toEqual({ server: '/c/south' });
      const unknown = await ask(cluster.url, { email: 'unknown@nowhere.example' });
      expect(unknown.status).toBe(503);
      expect(unknown.json?.message).toBe('The sign-in service could not reach every server. Try again in a moment.');
    } finally {
      writeFileSync(cluster.directoryFile, formatDirectory(cluster.entries));
    }
  });
});
