/**
 * The directory service: `POST /api/scms/directory` in front of several
 * servers (docs/scaling.md, "Several servers behind one proxy"). The
 * proxy sends that one route here; the app asks it at sign-in which
 * server holds an e-mail's account (src/data/auth.ts) and gets the server
 * path of a community, `{"server": "/c/palm-grove"}`.
 *
 * It keeps no list of accounts: it asks every server of the directory file
 * (server/directory/directoryFile.ts) at once, through each server's
 * key-guarded lookup (pb_hooks/lib/directory.js), so it is never out of
 * date. It tells no one whether an address has an account: an unknown
 * address gets a community too, the same one every time (chosen by an HMAC
 * of the address under the service's key), after the same questions to
 * every server, and the sign-in there fails like a wrong password.
 */
import { createHmac } from 'node:crypto';
import { statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { communityServerPath } from '../../src/domain/communitySlug.ts';
import { DIRECTORY_BODY_LIMIT, readDirectoryRequest } from '../../src/domain/directory.ts';
import { readDirectory, serversOf, type DirectoryEntry } from './directoryFile.ts';

export const DIRECTORY_ROUTE = '/api/scms/directory';

export interface DirectoryServiceOptions {
  /** The directory file; read again whenever it changes. */
  directoryFile: string;
  /** The key the servers' lookup routes take (SCMS_DIRECTORY_KEY), at least 32 characters. */
  key: string;
  port: number;
  host?: string;
  /** How long a server's answer is waited for (default 5 s). */
  lookupTimeoutMs?: number;
}

export interface DirectoryService {
  url: string;
  stop: () => Promise<void>;
}

class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The community an unknown address is sent to: the same for the same address, spread over all of them. */
export function decoyCommunity(entries: readonly DirectoryEntry[], email: string, key: string): DirectoryEntry {
  const sorted = [...entries].sort((a, b) => a.slug.localeCompare(b.slug));
  const digest = createHmac('sha256', key).update(email).digest();
  return sorted[digest.readUInt32BE(0) % sorted.length]!;
}

async function readLimitedBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new Failure(413, 'The request body is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Failure(413, 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startDirectoryService(options: DirectoryServiceOptions): Promise<DirectoryService> {
  if (options.key.length < 32) throw new Error('The directory key must be at least 32 characters');
  const timeout = options.lookupTimeoutMs ?? 5_000;
  let cached: { mtimeMs: number; entries: DirectoryEntry[] } | undefined;
  const entries = (): DirectoryEntry[] => {
    const { mtimeMs } = statSync(options.directoryFile);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, entries: readDirectory(options.directoryFile) };
    return cached.entries;
  };

  /** The community ids of `email`'s accounts on every server; throws 503 if a server did not answer. */
  async function communitiesOf(email: string, servers: string[]): Promise<Set<string>> {
    const answers = await Promise.allSettled(
      servers.map(async (server) => {
        const response = await fetch(`${server}/api/scms/directory/lookup?email=${encodeURIComponent(email)}`, {
          headers: { Authorization: `Bearer ${options.key}` },
          signal: AbortSignal.timeout(timeout),
        });
        if (!response.ok) throw new Error(`${server} answered ${response.status}`);
        return ((await response.json()) as { community?: unknown }).community;
      }),
    );
    const found = new Set<string>();
    let unanswered = 0;
    for (const answer of answers) {
      if (answer.status === 'rejected') unanswered += 1;
      else if (typeof answer.value === 'string') found.add(answer.value);
    }
    // Not found while a server was silent: the account may be there; a made-up answer would mislead its owner.
    if (found.size === 0 && unanswered > 0)
      throw new Failure(503, 'The sign-in service could not reach every server. Try again in a moment.');
    return found;
  }

  async function answer(request: IncomingMessage): Promise<{ server: string }> {
    if (request.url?.split('?')[0] !== DIRECTORY_ROUTE) throw new Failure(404, 'The requested resource was not found.');
    if (request.method !== 'POST') throw new Failure(405, 'Use POST.');
    const reading = readDirectoryRequest(await readLimitedBody(request, DIRECTORY_BODY_LIMIT));
    if ('problem' in reading) throw new Failure(400, reading.problem);
    const all = entries();
    if (all.length === 0) throw new Failure(503, 'No community is set up on this service yet.');
    const found = await communitiesOf(reading.email, serversOf(all));
    const entry =
      all.find((candidate) => found.has(candidate.communityId)) ?? decoyCommunity(all, reading.email, options.key);
    return { server: communityServerPath(entry.slug) };
  }

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    answer(request).then(
      (body) => send(response, 200, body),
      (error: unknown) => {
        if (error instanceof Failure)
          send(response, error.status, { error: true, code: error.status, message: error.message });
        else {
          process.stderr.write(`[directory] ${String(error)}\n`);
          send(response, 500, {
            error: true,
            code: 500,
            message: 'An error occurred on the server. Please try again.',
          });
        }
      },
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
