/**
 * Two test servers behind the cluster's real proxy (Caddy, configured by
 * scripts/cluster/caddyfile.ts) with the directory service
 * (server/directory/service.ts) beside it: a community on each, for the
 * tests of the directory route and of the server a device keeps. No
 * streaming here (tests/integration/stream-restore.test.ts has it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCaddy, type RunningCaddy } from '../../scripts/cluster/caddy.ts';
import { caddyfile } from '../../scripts/cluster/caddyfile.ts';
import { freePort } from '../../scripts/pocketbase/server.ts';
import { formatDirectory, type DirectoryEntry } from '../../server/directory/directoryFile.ts';
import { startDirectoryService, type DirectoryService } from '../../server/directory/service.ts';
import { createCommunity, startTestServer, type CommunityFixture, type TestServer } from './pocketbase.ts';

/** The directory key of the tests' clusters (a fixed one: an unknown address's community is then known in advance). */
export const DIRECTORY_KEY = 'test-directory-key-0123456789abcdef';

export interface TestCluster {
  /** The proxy's origin: the app's one address. */
  url: string;
  servers: [TestServer, TestServer];
  /** A community on each server: `north` on the first, `south` on the second. */
  communities: [CommunityFixture, CommunityFixture];
  slugs: ['north', 'south'];
  entries: DirectoryEntry[];
  directoryFile: string;
  directory: DirectoryService;
  caddy: RunningCaddy;
  stop: () => Promise<void>;
}

export async function startTestCluster(): Promise<TestCluster> {
  const folder = mkdtempSync(join(tmpdir(), 'scms-cluster-'));
  const env = { SCMS_DIRECTORY_KEY: DIRECTORY_KEY };
  const servers: [TestServer, TestServer] = [await startTestServer(env), await startTestServer(env)];
  const started: Array<{ stop: () => Promise<void> }> = [...servers];
  try {
    return await behindTheProxy(folder, servers, started);
  } catch (error) {
    // Nothing left running behind a failed start.
    for (const part of started.reverse()) await part.stop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

async function behindTheProxy(
  folder: string,
  servers: [TestServer, TestServer],
  started: Array<{ stop: () => Promise<void> }>,
): Promise<TestCluster> {
  const communities: [CommunityFixture, CommunityFixture] = [
    await createCommunity(servers[0].admin, 'north'),
    await createCommunity(servers[1].admin, 'south'),
  ];
  const entries: DirectoryEntry[] = [
    { slug: 'north', communityId: communities[0].community.id, server: servers[0].url },
    { slug: 'south', communityId: communities[1].community.id, server: servers[1].url },
  ];
  const directoryFile = join(folder, 'directory.txt');
  writeFileSync(directoryFile, formatDirectory(entries));
  const directory = await startDirectoryService({ directoryFile, key: DIRECTORY_KEY, port: 0, lookupTimeoutMs: 3_000 });
  started.push(directory);
  const port = await freePort();
  const adminAddress = `127.0.0.1:${await freePort()}`;
  const caddy = await startCaddy(
    join(folder, 'caddy'),
    caddyfile({
      site: `http://127.0.0.1:${port}`,
      adminAddress,
      directoryService: new URL(directory.url).host,
      entries,
    }),
    adminAddress,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    communities,
    slugs: ['north', 'south'],
    entries,
    directoryFile,
    directory,
    caddy,
    stop: async () => {
      await caddy.stop();
      await directory.stop();
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
