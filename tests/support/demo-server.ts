/**
 * A test server with the demo communities seeded and their staff signed in
 * once each (sign-ins are limited to 20 a minute): for the route tests that
 * compare what each role of each community is shown with the records API.
 */
import type PocketBase from 'pocketbase';
import {
  DEMO_DIRECTOR,
  DEMO_MANAGER,
  DEMO_REGULAR,
  DEMO_SECOND_DIRECTOR,
  type DemoAccount,
} from '../../scripts/seed/demo-account.ts';
import { seedDemo } from '../../scripts/seed/seed.ts';
import { startTestServer, type TestServer } from './pocketbase.ts';

/** The demo's director, manager and officer, and the other community's director. */
export const DEMO_STAFF: readonly DemoAccount[] = [DEMO_DIRECTOR, DEMO_MANAGER, DEMO_REGULAR, DEMO_SECOND_DIRECTOR];

export interface DemoServer {
  server: TestServer;
  /** The account's session, signed in once. */
  session: (account: DemoAccount) => PocketBase;
}

export async function startDemoServer(): Promise<DemoServer> {
  const server = await startTestServer();
  await seedDemo(server.admin);
  const sessions = new Map<DemoAccount, PocketBase>();
  for (const account of DEMO_STAFF) sessions.set(account, await server.signIn(account.email, account.password));
  return { server, session: (account) => sessions.get(account)! };
}
