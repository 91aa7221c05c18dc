/**
 * The cluster's configuration as text and rules: the directory file
 * (server/directory/directoryFile.ts), the Caddyfile made from it
 * (scripts/cluster/caddyfile.ts, read back with the deploy files' Caddyfile
 * parser), Litestream's configuration and the stream's settings
 * (scripts/cluster/litestream.ts, streamSettings.ts), the server paths the
 * app accepts (src/api/baseUrl.ts) and the community an unknown address is
 * sent to (server/directory/service.ts).
 */
import { describe, expect, test } from 'vitest';
import { caddyfile } from '../../scripts/cluster/caddyfile.ts';
import { litestreamConfig } from '../../scripts/cluster/litestream.ts';
import { streamTarget } from '../../scripts/cluster/streamSettings.ts';
import {
  formatDirectory,
  parseDirectory,
  serversOf,
  type DirectoryEntry,
} from '../../server/directory/directoryFile.ts';
import { decoyCommunity } from '../../server/directory/service.ts';
import { apiBaseUrl, apiPathOf, serverPathOfCommunity, validServerPath } from '../../src/api/baseUrl.ts';
import { linkServerPath } from '../../src/data/serverChoice.ts';
import { readDirectoryRequest } from '../../src/domain/directory.ts';
import { parseCaddyfile } from '../support/caddyfile.ts';

const ENTRIES: DirectoryEntry[] = [
  { slug: 'palm-grove', communityId: 'aaaaaaaaaaaaaaa', server: 'http://10.0.0.5:8101' },
  { slug: 'harbor-pointe', communityId: 'bbbbbbbbbbbbbbb', server: 'http://10.0.0.6:8101' },
  { slug: 'cedar-park', communityId: 'ccccccccccccccc', server: 'http://10.0.0.5:8101' },
];

describe('the directory file', () => {
  test('reads what it writes, comments and blank lines aside', () => {
    const text = `${formatDirectory(ENTRIES)}\n# moved on 2026-11-28\n\n`;
    expect(parseDirectory(text)).toEqual(ENTRIES);
    expect(serversOf(ENTRIES)).toEqual(['http://10.0.0.5:8101', 'http://10.0.0.6:8101']);
  });

  test.each([
    ['palm-grove aaaaaaaaaaaaaaa', /line 1: expected 'community id server'/],
    ['Palm_Grove aaaaaaaaaaaaaaa http://10.0.0.5:8101', /line 1: 'Palm_Grove' is not a community name/],
    ['palm-grove short http://10.0.0.5:8101', /line 1: 'short' is not a record id/],
    ['palm-grove aaaaaaaaaaaaaaa ftp://10.0.0.5', /line 1: 'ftp:\/\/10.0.0.5' is not a server address/],
    ['palm-grove aaaaaaaaaaaaaaa http://10.0.0.5:8101/api', /is not a server address/],
    [
      'palm-grove aaaaaaaaaaaaaaa http://10.0.0.5:8101\npalm-grove bbbbbbbbbbbbbbb http://10.0.0.6:8101',
      /line 2: 'palm-grove' is already on line 1/,
    ],
    [
      'palm-grove aaaaaaaaaaaaaaa http://10.0.0.5:8101\n\nharbor aaaaaaaaaaaaaaa http://10.0.0.6:8101',
      /line 3: 'aaaaaaaaaaaaaaa' is already on line 1/,
    ],
  ])('refuses %j, saying where and why', (text, message) => {
    expect(() => parseDirectory(text)).toThrow(message);
  });
});

describe('the Caddyfile made from the directory', () => {
  const local = parseCaddyfile(
    caddyfile({
      site: 'http://127.0.0.1:8090',
      adminAddress: '127.0.0.1:2999',
      directoryService: '127.0.0.1:8099',
      entries: ENTRIES,
    }),
  );
  const [globals, site] = local;

  test("a path per community to its server, unbuffered, with the servers' lookup refused there", () => {
    expect(globals!.block.find((d) => d.name === 'admin')?.args).toEqual(['127.0.0.1:2999']);
    const routes = site!.block.filter((d) => d.name === 'handle_path');
    expect(routes.map((d) => d.args[0])).toEqual(['/c/palm-grove/*', '/c/harbor-pointe/*', '/c/cedar-park/*']);
    for (const [i, route] of routes.entries()) {
      expect(route.block.find((d) => d.name === 'respond')?.args).toEqual(['/api/scms/directory/lookup*', '404']);
      const proxy = route.block.find((d) => d.name === 'reverse_proxy')!;
      expect(proxy.args).toEqual([new URL(ENTRIES[i]!.server).host]);
      expect(proxy.block.find((d) => d.name === 'flush_interval')?.args).toEqual(['-1']);
    }
  });

  test('the directory route to the service, the lookup and unknown communities refused, the rest to the first server up', () => {
    const handles = site!.block.filter((d) => d.name === 'handle');
    expect(handles.find((d) => d.args[0] === '/api/scms/directory')?.block[0]).toMatchObject({
      name: 'reverse_proxy',
      args: ['127.0.0.1:8099'],
    });
    expect(handles.find((d) => d.args[0] === '/api/scms/directory/lookup*')?.block[0]).toMatchObject({
      name: 'respond',
      args: ['404'],
    });
    expect(handles.find((d) => d.args[0] === '/c/*')?.block[0]).toMatchObject({ name: 'respond', args: ['404'] });
    const fallback = handles.find((d) => d.args.length === 0)!.block[0]!;
    expect(fallback.args).toEqual(['10.0.0.5:8101', '10.0.0.6:8101']);
    expect(fallback.block.find((d) => d.name === 'lb_policy')?.args).toEqual(['first']);
  });

  test('on this machine: plain http on the loopback; for a domain: TLS by Caddy and HSTS', () => {
    expect(globals!.block.some((d) => d.name === 'auto_https')).toBe(true);
    expect(site!.block.find((d) => d.name === 'bind')?.args).toEqual(['127.0.0.1']);
    expect(site!.block.some((d) => d.name === 'header')).toBe(false);
    const [domainGlobals, domain] = parseCaddyfile(
      caddyfile({
        site: 'patrol.example.com',
        adminAddress: 'localhost:2019',
        directoryService: '127.0.0.1:8099',
        entries: ENTRIES,
      }),
    );
    expect(domainGlobals!.block.some((d) => d.name === 'auto_https')).toBe(false);
    expect(domain!.name).toBe('patrol.example.com');
    expect(domain!.block.some((d) => d.name === 'bind')).toBe(false);
    expect(domain!.block.find((d) => d.name === 'header')?.args[0]).toBe('Strict-Transport-Security');
  });
});

describe('the stream', () => {
  test("Litestream's configuration: the database, its folder in the bucket, a sync a second, the control socket", () => {
    const config = JSON.parse(
      litestreamConfig(
        '/srv/one/pb_data/data.db',
        {
          endpoint: 'http://127.0.0.1:9000',
          region: 'us-east-1',
          bucket: 'scms',
          path: 'servers/one',
          accessKeyId: 'k',
          secretAccessKey: 's',
        },
        '/srv/one/litestream.sock',
      ),
    ) as { socket: unknown; dbs: Array<{ path: string; replica: Record<string, unknown> }> };
    expect(config.socket).toEqual({ enabled: true, path: '/srv/one/litestream.sock' });
    expect(config.dbs).toEqual([
      {
        path: '/srv/one/pb_data/data.db',
        replica: {
          type: 's3',
          bucket: 'scms',
          path: 'servers/one',
          region: 'us-east-1',
          'sync-interval': '1s',
          endpoint: 'http://127.0.0.1:9000',
          'force-path-style': true,
        },
      },
    ]);
    // The credentials stay out of the file.
    expect(JSON.stringify(config)).not.toMatch(/"k"|"s"/);
  });

  test('the settings: none without a bucket; with one, every other setting, and a folder name', () => {
    expect(streamTarget({})).toBeNull();
    const complete = {
      SCMS_STREAM_S3_BUCKET: 'scms',
      SCMS_STREAM_S3_REGION: 'eu-central-1',
      SCMS_STREAM_S3_ACCESS_KEY: 'k',
      SCMS_STREAM_S3_SECRET: 's',
      SCMS_STREAM_PATH: 'servers/one',
    };
    expect(streamTarget(complete)).toMatchObject({ bucket: 'scms', path: 'servers/one', endpoint: '' });
    expect(() => streamTarget({ SCMS_STREAM_S3_BUCKET: 'scms' })).toThrow(
      'SCMS_STREAM_S3_BUCKET is set, but not SCMS_STREAM_S3_REGION, SCMS_STREAM_S3_ACCESS_KEY, SCMS_STREAM_S3_SECRET, SCMS_STREAM_PATH.',
    );
    expect(() => streamTarget({ ...complete, SCMS_STREAM_PATH: '../other' })).toThrow(/must be a folder name/);
  });
});

describe('the server a device keeps', () => {
  test('only the origin itself or a community path is a server path', () => {
    expect(validServerPath('')).toBe('');
    expect(validServerPath('/c/palm-grove')).toBe('/c/palm-grove');
    for (const bad of [
      '/c/',
      '/c/Palm',
      '/c/palm-grove/',
      '/c/palm-grove/api',
      'https://x.example/c/a',
      '/x/a',
      null,
      7,
    ])
      expect(validServerPath(bad)).toBeNull();
  });

  test("a link's community: lower-cased, trimmed, and nothing for a malformed one", () => {
    expect(serverPathOfCommunity(' Palm-Grove ')).toBe('/c/palm-grove');
    expect(serverPathOfCommunity('-palm')).toBeNull();
    expect(serverPathOfCommunity('a'.repeat(41))).toBeNull();
    expect(serverPathOfCommunity(null)).toBeNull();
    expect(linkServerPath('?c=harbor-pointe&x=1')).toBe('/c/harbor-pointe');
    expect(linkServerPath('?c=../evil')).toBeNull();
    expect(linkServerPath('')).toBeNull();
  });

  test('the base URL and the API path the worker routes by', () => {
    expect(apiBaseUrl('https://patrol.example.com', '/c/palm-grove')).toBe('https://patrol.example.com/c/palm-grove');
    expect(apiBaseUrl('https://patrol.example.com/', '')).toBe('https://patrol.example.com');
    expect(apiBaseUrl('https://patrol.example.com', 'https://elsewhere.example')).toBe('https://patrol.example.com');
    expect(apiPathOf('/c/palm-grove/api/files/a/b/c.png')).toBe('/api/files/a/b/c.png');
    expect(apiPathOf('/api/files/a/b/c.png')).toBe('/api/files/a/b/c.png');
    expect(apiPathOf('/c/Bad/api/files/x')).toBe('/c/Bad/api/files/x');
  });
});

describe('the directory route', () => {
  test('reads an e-mail, lower-cased, and nothing else', () => {
    expect(readDirectoryRequest('{"email":" Ann@Example.COM "}')).toEqual({ email: 'ann@example.com' });
    expect(readDirectoryRequest('{"email":"ann@example.com","x":1}')).toEqual({
      problem: 'Send a JSON object with only an email.',
    });
    expect(readDirectoryRequest('["ann@example.com"]')).toEqual({ problem: 'Send a JSON object with only an email.' });
    expect(readDirectoryRequest('{"email":"ann"}')).toEqual({ problem: 'Not a valid email' });
    expect(readDirectoryRequest('{')).toEqual({ problem: 'The request body is not valid JSON.' });
  });

  test('an unknown address: the same community every time, another key another spread', () => {
    const first = decoyCommunity(ENTRIES, 'nobody@example.com', 'k'.repeat(32));
    expect(decoyCommunity([...ENTRIES].reverse(), 'nobody@example.com', 'k'.repeat(32))).toEqual(first);
    const spread = new Set(
      Array.from({ length: 60 }, (_, n) => decoyCommunity(ENTRIES, `nobody-${n}@example.com`, 'k'.repeat(32)).slug),
    );
    expect(spread).toEqual(new Set(ENTRIES.map((entry) => entry.slug)));
  });
});
