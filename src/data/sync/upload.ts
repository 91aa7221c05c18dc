/**
 * How an outbox entry with photos travels on a weak uplink. A fixed time-out
 * cannot tell a slow upload from a dead one: at 100 KB/s a 3 MB photo takes
 * 30 s, and a 20 s limit cut it every time, for ever. So an upload's
 * time-out follows its progress: it is cut only when no byte moved for
 * STALL_MS, or when the server has not answered ANSWER_MS after the last
 * byte. The window sends with XMLHttpRequest, the one browser API that
 * reports upload progress (shown on the sync badge); the service worker has
 * only fetch, so there the time-out grows with the body's size instead.
 *
 * Used as the PocketBase SDK's `fetch` send option (replay.ts): the SDK
 * builds the request and reads the Response as from fetch.
 */

/** No byte of the body moved for this long: the upload has stalled. */
export const STALL_MS = 30_000;
/** The whole body is sent and the server has not answered for this long. */
export const ANSWER_MS = 60_000;
/** The service worker's time-out: a floor, plus the body at the slowest rate we still wait for. */
export const WORKER_FLOOR_MS = 20_000;
export const SLOWEST_BYTES_PER_S = 8_000;

/** Thrown (as the SDK's originalError) when an upload was cut for lack of progress, not for lack of a network. */
export class UploadStalled extends Error {
  constructor() {
    super('The upload made no progress and was stopped; it is sent again later.');
    this.name = 'UploadStalled';
  }
}

export function isUploadStalled(error: unknown): boolean {
  const original = (error as { originalError?: unknown } | null)?.originalError ?? error;
  return original instanceof Error && original.name === 'UploadStalled';
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/** Bytes of a request body, as far as it can be told without reading it. */
export function bodySize(body: BodyInit | null | undefined): number {
  if (!body) return 0;
  if (typeof body === 'string') return body.length;
  if (body instanceof Blob) return body.size;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    let size = 0;
    body.forEach((value) => (size += typeof value === 'string' ? value.length : value.size));
    return size;
  }
  return 0;
}

/** The service worker's fetch, its time-out grown with the body (it sees no progress). */
function fetchWithSizedTimeout(url: string, init: RequestInit): Promise<Response> {
  const ms = Math.ceil(WORKER_FLOOR_MS + (bodySize(init.body) / SLOWEST_BYTES_PER_S) * 1000);
  const signals = [AbortSignal.timeout(ms), ...(init.signal ? [init.signal] : [])];
  return fetch(url, { ...init, signal: AbortSignal.any(signals) });
}

/** A Response whose status may not carry a body gets none (the constructor refuses one). */
function responseOf(xhr: XMLHttpRequest): Response {
  const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
  return new Response(empty ? null : xhr.responseText, {
    status: xhr.status,
    headers: { 'Content-Type': xhr.getResponseHeader('Content-Type') ?? 'application/json' },
  });
}

/** A fetch for the SDK that reports upload progress and times out on a stall, not on a clock. */
export function uploadFetch(
  onProgress: (progress: UploadProgress) => void,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    if (typeof XMLHttpRequest === 'undefined') return fetchWithSizedTimeout(url, init);
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stalled = false;
      const arm = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stalled = true;
          xhr.abort();
        }, ms);
      };
      xhr.open(init.method ?? 'GET', url);
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => {
        arm(STALL_MS);
        onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : bodySize(init.body) });
      };
      xhr.upload.onload = () => arm(ANSWER_MS);
      xhr.onload = () => {
        clearTimeout(timer);
        resolve(responseOf(xhr));
      };
      xhr.onerror = () => {
        clearTimeout(timer);
        reject(new TypeError('Failed to fetch'));
      };
      xhr.onabort = () => {
        clearTimeout(timer);
        reject(stalled ? new UploadStalled() : new DOMException('The upload was aborted.', 'AbortError'));
      };
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      arm(STALL_MS);
      xhr.send(init.body as XMLHttpRequestBodyInit | null);
    });
  };
}
