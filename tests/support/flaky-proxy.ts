/**
 * A flaky network between the app and PocketBase, for the outbox tests: an
 * HTTP proxy on a free port that forwards every request and, when told to,
 * - refuses connections (offline),
 * - holds a request before forwarding it (a request still on its way),
 * - drops a response after the server answered it: the server has committed,
 *   the client sees a network error (the SDK's status 0),
 * and logs every request with its body, so tests can count what was sent.
 *
 * Responses are buffered before they are passed on (so an answer can be
 * held or dropped whole), except the realtime stream (server-sent events),
 * which is passed on as it comes and is cut when the proxy goes offline.
 */
import {
  createServer,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  /** The body as latin1 text, so multipart bytes survive: tests look for record ids in it. */
  body: string;
  /** The server's status, or what the proxy did instead of passing the answer on. */
  outcome: number | 'pending' | 'refused' | 'dropped' | 'unreachable';
}

export type RequestMatcher = (request: SeenRequest) => boolean;

/** Matches requests by method, path prefix and (optionally) a text their body contains. */
export function matching(method: string, pathPrefix = '/', bodyIncludes?: string): RequestMatcher {
  return (r) =>
    r.method === method &&
    r.path.startsWith(pathPrefix) &&
    (bodyIncludes === undefined || r.body.includes(bodyIncludes));
}

/** Requests that write records: creates, updates and batches (not sign-ins). */
export const recordWrite: RequestMatcher = (r) =>
  (r.method === 'POST' || r.method === 'PATCH') &&
  (r.path.startsWith('/api/collections/') || r.path.startsWith('/api/batch')) &&
  !r.path.includes('/auth-');

export interface Hold {
  /** Resolves when a matching request arrived (and is being held). */
  arrived: Promise<SeenRequest>;
  /** Lets it go on; with dropResponse the server's answer is dropped. */
  release: (options?: { dropResponse?: boolean }) => void;
}

export interface FlakyProxy {
  url: string;
  /** Every request seen, in order of arrival. */
  requests: SeenRequest[];
  setOffline: (offline: boolean) => void;
  /** Drops the response of the next `times` requests matching (all requests by default). */
  dropResponses: (match?: RequestMatcher, times?: number) => void;
  /** Holds the next request matching until released. */
  hold: (match: RequestMatcher) => Hold;
  /** Awaited after the server answered a request and before the answer goes back (or is dropped). */
  afterResponse: ((request: SeenRequest) => Promise<void> | void) | undefined;
  /** Forgets rules, holds (releasing them), the hook and the log; back online. */
  reset: () => void;
  close: () => Promise<void>;
}

// Connection-level headers describe one hop; the proxy sets its own.
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade'];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

export async function startFlakyProxy(upstreamUrl: string): Promise<FlakyProxy> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  let offline = false;
  let drops: Array<{ match: RequestMatcher; times: number }> = [];
  interface Holding extends Hold {
    match: RequestMatcher;
    caught: boolean;
    arrive: (r: SeenRequest) => void;
    released: Promise<{ dropResponse?: boolean }>;
  }
  let holds: Holding[] = [];

  const server = createServer((req, res) => {
    // A client that gave up (a timeout, a closed page) must not fail the test run.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    handle(req, res).catch(() => req.socket.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: body.toString('latin1'),
      outcome: 'pending',
    };
    proxy.requests.push(seen);
    if (offline) {
      seen.outcome = 'refused';
      req.socket.destroy();
      return;
    }

    const held = holds.find((h) => !h.caught && h.match(seen));
    let drop = false;
    if (held) {
      held.caught = true;
      held.arrive(seen);
      drop = (await held.released).dropResponse ?? false;
    }
    const rule = drops.find((d) => d.times > 0 && d.match(seen));
    if (rule) {
      rule.times--;
      drop = true;
    }

    const out = forward({
      host: upstream.hostname,
      port: upstream.port,
      method: seen.method,
      path: seen.path,
      headers: { ...endToEnd(req.headers), host: upstream.host, 'content-length': String(body.length) },
      agent: false,
    });
    out.on('error', () => {
      seen.outcome = 'unreachable';
      req.socket.destroy();
    });
    out.on('response', (answer) => {
      passOn(answer).catch(() => req.socket.destroy());
    });
    out.end(body);

    async function passOn(answer: IncomingMessage): Promise<void> {
      // A stream of events (realtime) never ends: it is passed on as it comes.
      if (!drop && String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        seen.outcome = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        res.flushHeaders();
        // The client gone (closed, or cut by going offline), the server's side goes too.
        req.socket.once('close', () => answer.destroy());
        for await (const part of answer) res.write(part as Buffer);
        res.end();
        return;
      }
      const parts: Buffer[] = [];
      for await (const part of answer) parts.push(part as Buffer);
      seen.outcome = answer.statusCode ?? 0;
      await proxy.afterResponse?.(seen);
      if (drop) {
        seen.outcome = 'dropped';
        req.socket.destroy();
        return;
      }
      const payload = Buffer.concat(parts);
      res.writeHead(answer.statusCode ?? 502, {
        ...endToEnd(answer.headers),
        'content-length': String(payload.length),
      });
      res.end(payload);
    }
  }

  server.on('connection', (socket) => {
    if (offline) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('proxy has no port');

  const proxy: FlakyProxy = {
    url: `http://127.0.0.1:${address.port}`,
    requests: [],
    afterResponse: undefined,
    setOffline: (value) => {
      offline = value;
      // Kept-alive connections would still carry requests: cut them too.
      if (value) for (const socket of sockets) socket.destroy();
    },
    dropResponses: (match = () => true, times = 1) => {
      drops.push({ match, times });
    },
    hold: (match) => {
      let arrive!: (r: SeenRequest) => void;
      let release!: (o?: { dropResponse?: boolean }) => void;
      const arrived = new Promise<SeenRequest>((r) => (arrive = r));
      const released = new Promise<{ dropResponse?: boolean }>((r) => (release = (o) => r(o ?? {})));
      holds.push({ match, caught: false, arrive, arrived, released, release });
      return { arrived, release };
    },
    reset: () => {
      // A test that failed mid-hold must not leave a request hanging.
      for (const h of holds) h.release();
      holds = [];
      drops = [];
      offline = false;
      proxy.afterResponse = undefined;
      proxy.requests.length = 0;
    },
    close: async () => {
      proxy.reset();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
