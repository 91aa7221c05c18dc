/**
 * Calls to residents (docs/product.md#calls-to-residents): a call's attempts
 * from the mirror for the home card, and the online-only actions — placing
 * a call, cancelling its retries, saving the community's call settings —
 * whose answer goes into the mirror at once. The settings themselves are
 * read in callSettings.ts.
 */
import type { RecordModel } from 'pocketbase';
import { pb } from '../../api/client.ts';
import type { CallAttemptRecord, CallSettingsRecord, ConcernRecord } from '../../api/records.ts';
import type { QuietMoment } from '../../domain/quietHours.ts';
import type { CallSettingsValues } from '../../domain/schemas.ts';
import type { Staff } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords } from '../mirror/mirror.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';

/**
 * Saves the community's call settings: the first save creates
 * its one record, later ones update it.
 */
export async function saveCallSettings(
  db: ScmsDatabase,
  director: Staff,
  values: CallSettingsValues,
  saved: CallSettingsRecord | null,
): Promise<void> {
  const service = pb.collection('call_settings');
  const record = saved
    ? await service.update(saved.id, values)
    : await service.create({ ...values, community: director.community });
  await applyServerRecords(db, 'call_settings', [record]);
}

export interface PlacedCall {
  /** The server's words for the toast. */
  message: string;
  /** The calls record the server created ('' if it named none). */
  callId: string;
}

/**
 * Places the automated call about the chosen concerns (docs/product.md#calls-to-residents); resolves
 * with the server's words for the toast and the call's id. The calls record
 * it creates comes by realtime (the card's marker bridges the wait, until
 * the mirror has the call of that id).
 */
export async function placeCall(
  houseId: string,
  concerns: readonly Pick<ConcernRecord, 'id' | 'name'>[],
  options: { overrideQuietHours?: boolean } = {},
): Promise<PlacedCall> {
  const response = await pb.send<{ code?: number; message?: string; call_id?: unknown }>('/api/scms/call-resident', {
    method: 'POST',
    body: {
      h_id: houseId,
      concerns: concerns.map((c) => ({ id: c.id, name: c.name, selected: true })),
      // Only the caller's yes to the quiet-hours question ('It is 22:14 for the resident, …. Call anyway?') sends it.
      ...(options.overrideQuietHours ? { override_quiet_hours: true } : {}),
    },
  });
  // Anything but the route's 200 body is a refusal, in the shape errorMessage reads.
  if (response.code !== 200) throw { response };
  return { message: response.message ?? '', callId: typeof response.call_id === 'string' ? response.call_id : '' };
}

/**
 * Stops the retries of the home's call that waits for its next try
 * (directors and managers; the server checks). The server answers with the
 * call and its attempts as they now are: they go into the mirror here, so
 * the card says how the call ended at once. Resolves with the server's
 * words for the toast.
 */
export async function cancelCallRetries(db: ScmsDatabase, houseId: string): Promise<string> {
  const response = await pb.send<{ message?: string; call?: RecordModel; attempts?: RecordModel[] }>(
    '/api/scms/call-retries/cancel',
    { method: 'POST', body: { h_id: houseId } },
  );
  if (response.call) await applyServerRecords(db, 'calls', [response.call]);
  if (response.attempts) await applyServerRecords(db, 'call_attempts', response.attempts);
  return response.message ?? '';
}

/**
 * The resident's local time and the quiet hours when the server refused a
 * call for them and wants the caller's explicit yes (its 409
 * 'confirm_quiet_hours'); null for any other failure.
 */
export function quietHoursLocalTime(error: unknown): QuietMoment | null {
  const data = (error as { response?: { data?: Record<string, unknown> } } | null)?.response?.data;
  const detail = data?.override_quiet_hours as Record<string, unknown> | undefined;
  if (detail?.code !== 'confirm_quiet_hours' || typeof detail.local_time !== 'string') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { localTime: detail.local_time, quietStart: text(detail.quiet_start), quietEnd: text(detail.quiet_end) };
}

/**
 * The attempts of one call, in order; only asked for (`needed`) when the
 * card's word depends on them ('Answered 10:42', 'No answer after 3 tries'),
 * so a keystroke that brings new cards into the list reads nothing more.
 */
export function useCallAttempts(callId: string, needed: boolean): CallAttemptRecord[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['call_attempts'],
    async () => (needed ? db.call_attempts.where('call').equals(callId).sortBy('sequence') : []),
    [callId, needed],
  );
}
