/**
 * A push service on 127.0.0.1 for the tests, as strict as a real one about
 * what it is sent, and able to read what a browser would:
 *
 * - RFC 8030: a POST to the subscription's endpoint, with TTL (required),
 *   Urgency and Topic; 201 with a Location when accepted.
 * - RFC 8292 (VAPID): `Authorization: vapid t=<JWT>, k=<public key>`; the
 *   JWT's ES256 signature is checked with k, its `aud` must be this
 *   service's origin and its `exp` in the future (at most 24 h); a
 *   subscription made for an application server key accepts only that key
 *   (403), as browsers' push services do.
 * - RFC 8291: the `aes128gcm` body is decrypted with the subscription's own
 *   private key and auth secret (http_ece, the library web-push encrypts
 *   with), so a test reads the JSON the phone would.
 *
 * Subscriptions are made like a browser makes them: a P-256 ECDH key pair
 * and a 16-byte auth secret (node:crypto). An endpoint can be told to
 * answer 404/410 for good (expired), or 500 or nothing at all the next
 * times (retries, a sender stopped mid-delivery).
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** http_ece ships no types; only its decrypt is used. */
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
};

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  endpoint: string;
  ttl: number;
  urgency: string;
  topic: string;
  /** The VAPID JWT's claims. */
  claims: { aud: string; exp: number; sub: string };
  /** The decrypted body, parsed. */
  payload: { id: string; kind: string; title: string; body: string; url: string };
  /** What it answered: a status, or 'hang' (no answer until stop). */
  answer: number | 'hang';
}

export interface PushServiceStandin {
  /** http://127.0.0.1:PORT */
  url: string;
  /** 127.0.0.1:PORT, as SCMS_PUSH_HOSTS names it. */
  host: string;
  /** A browser's subscription; `applicationServerKey` binds it to that VAPID key. */
  newSubscription(applicationServerKey?: string): BrowserSubscription;
  /** Every message accepted or held (decrypted), of one endpoint or all. */
  received(endpoint?: string): ReceivedPush[];
  /** Requests refused for what they were (bad VAPID, missing TTL, undecryptable body): none in a good run. */
  refused(): Array<{ endpoint: string; status: number; reason: string }>;
  /** The endpoint answers `status` (404 or 410) from now on, as for an expired subscription. */
  expire(endpoint: string, status: 404 | 410): void;
  /** The endpoint's next `times` messages get `answer`: a status (500) or 'hang'. */
  failNext(endpoint: string, answer: number | 'hang', times?: number): void;
  stop(): Promise<void>;
}

interface Subscriber {
  ecdh: ECDH;
  auth: Buffer;
  applicationServerKey: string | undefined;
  expired: number | null;
  planned: Array<number | 'hang'>;
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** RFC 8292: checks the VAPID header; the claims and the key it was signed with. */
function checkVapid(
  authorization: string | undefined,
  origin: string,
): { claims: ReceivedPush['claims']; key: string } {
  const m = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!m) throw new Refusal(401, 'no vapid Authorization');
  const params: Record<string, string> = {};
  for (const part of m[1]!.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  const token = params.t ?? '';
  const key = params.k ?? '';
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Refusal(401, 'k is no P-256 public key');
  const [head, body, signature] = token.split('.');
  if (!head || !body || !signature) throw new Refusal(401, 't is no JWT');
  const jose = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (jose.alg !== 'ES256') throw new Refusal(401, `JWT alg ${jose.alg}`);
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Refusal(401, 'JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Refusal(401, `JWT aud ${claims.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 24 * 3600)
    throw new Refusal(401, `JWT exp ${claims.exp} is not within the next 24 h`);
  if (!/^(mailto:|https:)/.test(String(claims.sub))) throw new Refusal(401, `JWT sub ${claims.sub}`);
  return { claims, key };
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startPushService(): Promise<PushServiceStandin> {
  const subscribers = new Map<string, Subscriber>();
  const messages: ReceivedPush[] = [];
  const refusals: Array<{ endpoint: string; status: number; reason: string }> = [];
  const held: ServerResponse[] = [];
  let origin = '';

  const server = createServer((request, response) => {
    void (async () => {
      const endpoint = `${origin}${request.url ?? ''}`;
      const body = await bodyOf(request);
      const subscriber = subscribers.get(endpoint);
      if (request.method !== 'POST' || !subscriber) {
        response.writeHead(404).end();
        return;
      }
      if (subscriber.expired !== null) {
        response.writeHead(subscriber.expired).end();
        return;
      }
      let message: ReceivedPush;
      try {
        const vapid = checkVapid(request.headers.authorization, origin);
        if (subscriber.applicationServerKey && vapid.key !== subscriber.applicationServerKey)
          throw new Refusal(403, 'signed with another key than the subscription was made for');
        const ttl = request.headers.ttl;
        if (ttl === undefined || !/^\d+$/.test(String(ttl))) throw new Refusal(400, 'no TTL');
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Refusal(415, 'not aes128gcm');
        let text: string;
        try {
          text = ece
            .decrypt(body, { version: 'aes128gcm', privateKey: subscriber.ecdh, authSecret: subscriber.auth })
            .toString('utf8');
        } catch (error) {
          throw new Refusal(400, `cannot decrypt: ${(error as Error).message}`);
        }
        message = {
          endpoint,
          ttl: Number(ttl),
          urgency: String(request.headers.urgency ?? 'normal'),
          topic: String(request.headers.topic ?? ''),
          claims: vapid.claims,
          payload: JSON.parse(text) as ReceivedPush['payload'],
          answer: subscriber.planned.shift() ?? 201,
        };
      } catch (error) {
        const status = error instanceof Refusal ? error.status : 400;
        refusals.push({ endpoint, status, reason: (error as Error).message });
        response.writeHead(status).end((error as Error).message);
        return;
      }
      messages.push(message);
      if (message.answer === 'hang') {
        held.push(response);
        return;
      }
      const headers = message.answer === 201 ? { Location: `${origin}/message/${randomBytes(8).toString('hex')}` } : {};
      response.writeHead(message.answer, headers).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  const subscriberOf = (endpoint: string) => {
    const subscriber = subscribers.get(endpoint);
    if (!subscriber) throw new Error(`no subscription ${endpoint}`);
    return subscriber;
  };

  return {
    url: origin,
    host: `127.0.0.1:${port}`,
    newSubscription(applicationServerKey) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      subscribers.set(endpoint, { ecdh, auth, applicationServerKey, expired: null, planned: [] });
      return { endpoint, keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) } };
    },
    received: (endpoint) => messages.filter((m) => endpoint === undefined || m.endpoint === endpoint),
    refused: () => [...refusals],
    expire(endpoint, status) {
      subscriberOf(endpoint).expired = status;
    },
    failNext(endpoint, answer, times = 1) {
      for (let i = 0; i < times; i++) subscriberOf(endpoint).planned.push(answer);
    },
    async stop() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
