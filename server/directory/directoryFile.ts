/**
 * The cluster's directory: which community lives on which server. One line
 * per community, three columns separated by spaces:
 *
 *   # community     id                server
 *   palm-grove      pge0000community  http://127.0.0.1:8101
 *   harbor-pointe   hpt0000community  http://127.0.0.1:8102
 *
 * The community's name is the one in officers' links (`/?c=palm-grove`) and
 * in the proxy's routes (`/c/palm-grove/…`); the id is its record's id on
 * that server; the server is the PocketBase the proxy sends the community's
 * requests to. The proxy's configuration is generated from this file
 * (scripts/cluster/caddyfile.ts) and the directory service reads it
 * (server/directory/service.ts): moving a community is changing its server
 * here and reloading the proxy.
 */
import { readFileSync } from 'node:fs';
import { COMMUNITY_SLUG } from '../../src/domain/communitySlug.ts';

export interface DirectoryEntry {
  /** The community's name in links and routes. */
  slug: string;
  /** Its `communities` record id on its server. */
  communityId: string;
  /** Its server's base URL (scheme, host, port), as the proxy reaches it. */
  server: string;
}

const RECORD_ID = /^[a-z0-9]{15}$/;

/** The entries of a directory file's text; a malformed line throws, naming the line and what is wrong. */
export function parseDirectory(text: string): DirectoryEntry[] {
  const entries: DirectoryEntry[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.replace(/#.*$/, '').trim();
    if (line === '') return;
    const where = `directory line ${index + 1}`;
    const columns = line.split(/\s+/);
    if (columns.length !== 3) throw new Error(`${where}: expected 'community id server', got '${line}'`);
    const [slug, communityId, server] = columns as [string, string, string];
    if (!COMMUNITY_SLUG.test(slug))
      throw new Error(`${where}: '${slug}' is not a community name (a-z, 0-9 and dashes, at most 40)`);
    if (!RECORD_ID.test(communityId)) throw new Error(`${where}: '${communityId}' is not a record id (15 of a-z, 0-9)`);
    const url = URL.canParse(server) ? new URL(server) : null;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== server.replace(/\/$/, ''))
      throw new Error(`${where}: '${server}' is not a server address like http://10.0.0.5:8101`);
    for (const key of [slug, communityId]) {
      const earlier = seen.get(key);
      if (earlier !== undefined) throw new Error(`${where}: '${key}' is already on line ${earlier}`);
      seen.set(key, index + 1);
    }
    entries.push({ slug, communityId, server: url.origin });
  });
  return entries;
}

/** The entries of a directory file. */
export function readDirectory(path: string): DirectoryEntry[] {
  return parseDirectory(readFileSync(path, 'utf8'));
}

/** The directory's text for these entries, aligned, with its header. */
export function formatDirectory(entries: readonly DirectoryEntry[]): string {
  const width = Math.max(9, ...entries.map((entry) => entry.slug.length)) + 2;
  const lines = entries.map((entry) => `${entry.slug.padEnd(width)}${entry.communityId}  ${entry.server}`);
  return [`# ${'community'.padEnd(width - 2)}${'id'.padEnd(17)}server`, ...lines, ''].join('\n');
}

/** The distinct servers of a directory, in the order they first appear. */
export function serversOf(entries: readonly DirectoryEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.server))];
}
