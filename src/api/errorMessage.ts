/**
 * The one failure-message builder (docs/product.md#messages): a response without a code gives
 * 'An error occurred'; otherwise each field of the response's data is joined
 * with its message as 'field: message. '. When no field carries a message,
 * the server's own message is used. A write the device had no room for
 * says so (OUT_OF_STORAGE). Screens, toasts and the outbox's parked entries
 * all build their text here.
 */
export const GENERIC_ERROR = 'An error occurred';

/** A write this device could not keep for lack of space: what happened and what to do. */
export const OUT_OF_STORAGE =
  'This phone is out of storage. Free up some space (delete photos, videos or apps you no longer need), then try again.';

/**
 * Whether the device refused a write for lack of space: IndexedDB's
 * QuotaExceededError, as the browser throws it or as Dexie wraps it (an
 * aborted transaction's `inner` error, a bulk write's `failures`).
 */
export function isOutOfStorage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { name?: unknown; inner?: unknown; failures?: unknown; cause?: unknown };
  if (e.name === 'QuotaExceededError') return true;
  if (isOutOfStorage(e.inner, depth + 1) || isOutOfStorage(e.cause, depth + 1)) return true;
  const failures = Array.isArray(e.failures) ? e.failures : e.failures ? Object.values(e.failures) : [];
  return failures.some((failure) => isOutOfStorage(failure, depth + 1));
}

/** PocketBase (0.23+) answers with `status`; the original API said `code`. */
interface ErrorResponse {
  code?: number;
  status?: number;
  message?: string;
  data?: Record<string, unknown>;
}

export interface ErrorLike {
  status?: number;
  message?: string;
  response?: ErrorResponse;
  data?: ErrorResponse;
}

/** The server's field errors as { field: message }, nested batch errors included. */
export function fieldErrors(error: unknown): Record<string, string> {
  const response = responseOf(error);
  const out: Record<string, string> = {};
  collectFieldErrors(response?.data, out);
  return out;
}

function collectFieldErrors(data: unknown, out: Record<string, string>): void {
  if (!data || typeof data !== 'object') return;
  for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const entry = value as { message?: unknown; response?: { data?: unknown } };
    if (entry.response && typeof entry.response === 'object') {
      // A batch failure nests each request's own response.
      collectFieldErrors(entry.response.data, out);
    } else if (field === 'requests') {
      collectFieldErrors(value, out);
    } else if (typeof entry.message === 'string') {
      out[field] = entry.message;
    }
  }
}

/** The request of a batch PocketBase refused (its failure names it: data.requests.<index>); null when none is named. */
export function failedRequestIndex(error: unknown): number | null {
  const requests = responseOf(error)?.data?.requests;
  if (!requests || typeof requests !== 'object') return null;
  const indexes = Object.keys(requests).map(Number).filter(Number.isInteger);
  return indexes.length > 0 ? Math.min(...indexes) : null;
}

/** The code of one field's error in a direct (not batch) refusal ('validation_required'…); null when none. */
export function fieldErrorCode(error: unknown, field: string): string | null {
  const value = responseOf(error)?.data?.[field];
  if (!value || typeof value !== 'object') return null;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function responseOf(error: unknown): ErrorLike['response'] | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as ErrorLike;
  return e.response ?? e.data;
}

export function errorMessage(error: unknown): string {
  if (isOutOfStorage(error)) return OUT_OF_STORAGE;
  const response = responseOf(error);
  if (!response || !(response.code ?? response.status)) return GENERIC_ERROR;
  const fields = Object.entries(fieldErrors(error));
  // PocketBase's messages end with a period already; do not double it.
  if (fields.length > 0)
    return fields
      .map(([field, message]) => `${field}: ${/[.!?]$/.test(message) ? message : `${message}.`} `)
      .join('')
      .trim();
  return response.message || GENERIC_ERROR;
}
