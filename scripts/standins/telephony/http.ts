/**
 * The stand-in's HTTP plumbing: Twilio's JSON and error bodies, the form
 * body with its size limit, basic credentials, and a server on a port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TwilioError } from './resource.ts';

const MORE_INFO = 'https://www.twilio.com/docs/errors/';
const MAX_BODY_BYTES = 64 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Twilio's error JSON: {code, message, more_info, status}. */
export function sendError(res: ServerResponse, error: TwilioError, headers: Record<string, string> = {}): void {
  const { status, code, message } = error;
  sendJson(res, status, { code, message, more_info: `${MORE_INFO}${code}`, status }, headers);
}

export function notFound(res: ServerResponse, path: string): void {
  sendError(res, { status: 404, code: 20404, message: `The requested resource ${path} was not found` });
}

/** Reads the body; null when it is larger than MAX_BODY_BYTES. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function basicAuthUser(req: IncomingMessage): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export interface ListeningServer {
  url: string;
  /** Closes the server and every open connection. */
  close(): Promise<void>;
}

/** Serves `handle` on host:port (0 picks a free port); an error thrown by
 *  it answers 500 in Twilio's error format. */
export async function listen(
  port: number,
  host: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<ListeningServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('telephony stand-in: internal error', err);
      if (!res.headersSent) sendError(res, { status: 500, code: 20500, message: 'Internal Server Error' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
