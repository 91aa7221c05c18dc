/**
 * A real PocketBase for one test file: a free port, a temporary data folder,
 * this project's migrations and hooks, a superuser client, and helpers that
 * make communities with a director, a manager and a regular officer.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { inject } from 'vitest';
import { freePort, startPocketBase, type RunningPocketBase } from '../../scripts/pocketbase/server.ts';
import { recordIdFrom } from '../../src/domain/recordId.ts';

export const SUPERUSER = { email: 'superuser@scms.test', password: 'superuser-password-123' };
export const TEST_PASSWORD = 'patrol-pass-123';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated data folder with the superuser, copied by every test server of the run (makeServerTemplate). */
    serverTemplate?: string;
  }
}

/**
 * bcrypt's work factor for the test servers' passwords: its lowest. The
 * factor is there to slow down whoever steals a database; a test server
 * hashes hundreds of passwords (every user a fixture creates, every
 * sign-in compares one), and at PocketBase's default each took about
 * 80 ms of the processor. Checking a password works the same at any
 * factor; production keeps the default (the schema's migration sets none).
 */
const TEST_PASSWORD_COST = 4;

export interface TestServer {
  url: string;
  server: RunningPocketBase;
  /** The server's data folder (a test may run PocketBase's own commands on it, e.g. a throwaway migration). */
  dataDir: string;
  /** A client signed in as superuser (rules do not apply to it). */
  admin: PocketBase;
  /** A new client, not signed in. */
  client: () => PocketBase;
  /** A new client signed in as the given user. */
  signIn: (email: string, password?: string) => Promise<PocketBase>;
  /** Stops the PocketBase process and starts it again on the same data and port (`server` is then the new process). */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startTestServer(
  env: Record<string, string | undefined> = {},
  /**
   * `port`: a fixed port (e.g. from freePort()), for hooks that must know the server's address before it starts; a free one when absent.
   * `from`: a data folder to start from, copied (a stopped test server's, with this file's SUPERUSER: the browser tests' seeded demo, tests/e2e/global-setup.ts).
   */
  options: { publicDir?: string; port?: number; from?: string } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scms-pb-'));
  // The run's template (made once by the layer's global setup) when the caller names no folder;
  // none outside a Vitest run (a benchmark's server), where inject() has nothing to give and throws.
  const from = options.from ?? (process.env.VITEST ? inject('serverTemplate') : undefined);
  if (from) cpSync(from, dataDir, { recursive: true });
  // In demo mode health says ready only after the demo seed (readiness.pb.js):
  // such a test seeds (or marks the seed done) itself once the server listens.
  const startedWhen = env.SCMS_DEMO === '1' ? 'listening' : 'ready';
  // A copied folder is a test server's own (the browser tests' seeded demo): migrated, its superuser in it.
  const migrated = from !== undefined;
  const start = (port?: number, superuser?: typeof SUPERUSER) =>
    startPocketBase({ dataDir, port, superuser, env, publicDir: options.publicDir, startedWhen, migrated });
  const server = await start(options.port, SUPERUSER);
  const client = () => {
    const pb = new PocketBase(server.url);
    pb.autoCancellation(false);
    return pb;
  };
  const admin = client();
  await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
  const signIn = async (email: string, password = TEST_PASSWORD) => {
    const pb = client();
    await pb.collection('users').authWithPassword(email, password);
    return pb;
  };
  const test: TestServer = {
    url: server.url,
    server,
    dataDir,
    admin,
    client,
    signIn,
    restart: async () => {
      await test.server.stop();
      // Same port and no superuser upsert (a password write would void the
      // admin's token), so every client and its session keep working.
      test.server = await start(test.server.port);
    },
    stop: async () => {
      await test.server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return test;
}

/**
 * Once per test run (a layer's global setup): a data folder migrated by
 * this code base, with the superuser, whose passwords are hashed at
 * TEST_PASSWORD_COST. Every test server of the run starts on a copy
 * (startTestServer): a copy takes milliseconds, where `migrate up` and the
 * superuser's upsert are two more PocketBase processes for each server.
 */
export async function makeServerTemplate(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scms-pb-template-'));
  const server = await startPocketBase({ dataDir, superuser: SUPERUSER });
  try {
    const admin = new PocketBase(server.url);
    await admin.collection('_superusers').authWithPassword(SUPERUSER.email, SUPERUSER.password);
    for (const name of ['users', '_superusers']) {
      const collection = await admin.collections.getOne(name);
      const fields = collection.fields.map((field: { name: string; type: string }) =>
        field.type === 'password' ? { ...field, cost: TEST_PASSWORD_COST } : field,
      );
      await admin.collections.update(name, { fields });
    }
    // The superuser's own hash again, at the new factor (every test server signs it in once).
    await admin
      .collection('_superusers')
      .update(admin.authStore.record!.id, { password: SUPERUSER.password, passwordConfirm: SUPERUSER.password });
  } finally {
    // Stopped, not removed: PocketBase writes its database out whole on a clean stop.
    await server.stop();
  }
  return dataDir;
}

/**
 * A test server whose settings name its own address (SCMS_PUBLIC_URL, for
 * the telephony callbacks): the port is chosen first, and chosen again when
 * another process took it before PocketBase could bind it.
 */
export async function startTestServerAt(
  envFor: (publicUrl: string) => Record<string, string | undefined>,
  options: { publicDir?: string; from?: string } = {},
): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startTestServer(envFor(`http://127.0.0.1:${port}`), { ...options, port });
    } catch (error) {
      if (attempt >= 3 || !/address already in use/.test(String(error))) throw error;
    }
  }
}

export interface CommunityFixture {
  community: { id: string; name: string };
  director: { id: string; email: string };
  manager: { id: string; email: string };
  regular: { id: string; email: string };
}

/** Creates a community and its three staff members (as superuser). */
export async function createCommunity(
  admin: PocketBase,
  slug: string,
  name = `Community ${slug}`,
): Promise<CommunityFixture> {
  const community = await admin.collection('communities').create({ name, address: `1 ${slug} Way, Palm Beach, FL` });
  const staff = {} as Record<'director' | 'manager' | 'regular', { id: string; email: string }>;
  for (const type of ['director', 'manager', 'regular'] as const) {
    const email = `${type}.${slug}@scms.test`;
    const user = await admin.collection('users').create({
      email,
      emailVisibility: true,
      password: TEST_PASSWORD,
      passwordConfirm: TEST_PASSWORD,
      first_name: `${type[0]!.toUpperCase()}${type.slice(1)}`,
      last_name: slug.toUpperCase(),
      type,
      community: community.id,
      verified: true,
    });
    staff[type] = { id: user.id, email };
  }
  return { community: { id: community.id, name }, ...staff };
}

/**
 * For test files that sign in far more often than a person does: the
 * server's limit on sign-ins and custom routes per client (every client of
 * a test is 127.0.0.1) is raised; the other limits stay.
 */
export async function raiseSignInLimits(admin: PocketBase): Promise<void> {
  const settings = await admin.settings.getAll();
  const rules = (settings.rateLimits.rules as Array<{ label: string; maxRequests: number }>).map((rule) =>
    rule.label === '*:authWithPassword' || rule.label === '/api/scms/' ? { ...rule, maxRequests: 10_000 } : rule,
  );
  await admin.settings.update({ rateLimits: { ...settings.rateLimits, rules } });
}

/** A 15-character PocketBase id, as the outbox generates them. */
export function newId(): string {
  return recordIdFrom(Math.random);
}
