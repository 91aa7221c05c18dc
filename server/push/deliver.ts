/**
 * One push message to one browser subscription. web-push does the
 * cryptography (RFC 8291 aes128gcm payload encryption, RFC 8292 VAPID
 * signature) and builds the request; it is sent here with fetch, because
 * web-push's own sender speaks https only and the test stand-in
 * (tests/support/pushService.ts) is plain http on 127.0.0.1, and so that
 * a stop can abort a request that hangs.
 */
import { createHash } from 'node:crypto';
import webpush, { type RequestDetails } from 'web-push';
import type { VapidKeys } from './vapid.ts';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  /** JSON text: `{id, kind, title, body, url}` (the service worker shows it with tag = id). */
  payload: string;
  /** RFC 8030 Topic: a later message with the same topic replaces one the push service still holds. */
  topic: string;
  urgency: 'normal' | 'high';
  /** Seconds the push service keeps it for a phone that is off. */
  ttl: number;
}

export type PushOutcome =
  | { kind: 'accepted'; status: number }
  /** 404 or 410: the browser unsubscribed or the subscription expired; it is deleted. */
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; error: string }
  /** The sender was stopped while the request was out: nothing is known. */
  | { kind: 'aborted' };

/** A short hash of the notification's id: the same id always gives the same topic (RFC 8030 allows 32 base64url characters). */
export function topicFor(notificationId: string): string {
  return createHash('sha256').update(notificationId).digest('base64url').slice(0, 22);
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'the push service';
  }
}

export async function sendPush(
  target: PushTarget,
  message: PushMessage,
  vapid: VapidKeys & { subject: string },
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<PushOutcome> {
  let request: RequestDetails;
  try {
    request = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      message.payload,
      {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: message.ttl,
        urgency: message.urgency,
        topic: message.topic,
        contentEncoding: 'aes128gcm',
      },
    );
  } catch (error) {
    // A subscription whose keys are no browser's (the create hook checks their form only).
    return { kind: 'failed', error: `cannot encrypt for ${hostOf(target.endpoint)}: ${(error as Error).message}` };
  }
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  try {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
    const response = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      // A push service never redirects; following one could lead anywhere (server/push/hosts.ts).
      redirect: 'manual',
      signal,
    });
    const text = (await response.text()).slice(0, 200);
    if (response.status >= 200 && response.status < 300) return { kind: 'accepted', status: response.status };
    if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
    return { kind: 'failed', error: `${response.status} from ${hostOf(target.endpoint)}${text ? `: ${text}` : ''}` };
  } catch (error) {
    if (options.signal.aborted) return { kind: 'aborted' };
    const reason = (error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message;
    return { kind: 'failed', error: `${hostOf(target.endpoint)}: ${reason}` };
  }
}
