/**
 * The Notice area of a home card (docs/product.md#home-cards-and-the-desk-table): what it says, decided from the
 * home, its phones and the calls in the mirror. Pure, so the rules are
 * tested without a screen.
 */
import type { CallRecord, CallStatus, HouseRecord } from '../../api/records.ts';
import { isCallJobActive, type CallJobFields } from '../../domain/callOutcome.ts';
import { isHouseCheckDue } from '../../domain/houseCheck.ts';

export type HomeNotice = 'no-phone' | 'call-pending' | 'call-in-progress' | 'call-waiting' | 'house-check-due';

/** What the Notice area says for each notice (docs/product.md#home-cards-and-the-desk-table); 'House check' is its button. */
export const NOTICE_WORDS: Record<HomeNotice, string> = {
  'no-phone': 'Primary phone number missing',
  'call-pending': 'Call pending',
  'call-in-progress': 'Call in progress...',
  // Shown with the last attempt's outcome and the time ('Busy — next try 08:00', nextTryWord); this is how it sorts.
  'call-waiting': 'Next try',
  'house-check-due': 'House check',
};

/** The concern ids of a home's pending call ('' when none). */
export function pendingConcernIds(house: Pick<HouseRecord, 'pending_call_concerns_ids'>): string[] {
  return (house.pending_call_concerns_ids ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** A mirrored call as the call-outcome rules read it ('' for fields of calls from before attempts). */
export function callJobFields(
  call: Pick<CallRecord, 'status' | 'progress' | 'outcome' | 'acknowledged'>,
): CallJobFields & { status: CallStatus } {
  return {
    status: call.status,
    progress: call.progress ?? '',
    outcome: call.outcome ?? '',
    acknowledged: call.acknowledged ?? false,
  };
}

/**
 * Where a home's calls stand on its card, one state at a time: 'calling'
 * (a call is being placed or rings now: 'Call in progress...'), 'waiting'
 * (the job waits for its next attempt: 'Busy — next try 08:00'), 'over'
 * (the newest call has ended: 'Last call: …'), 'none' (never called).
 */
export type CardCallState = 'none' | 'calling' | 'waiting' | 'over';

/**
 * The card's call state from the home's newest call in the mirror and the
 * call this device placed moments ago (its id, from the server's answer; ''
 * if the server named none). The device's marker only bridges the moment
 * until the mirror has that call: from then on the mirror's call alone
 * decides, so the end of the call, once known, ends 'Call in progress...'
 * at once, never to be shown beside the outcome.
 */
export function cardCallState(
  latest: (Pick<CallRecord, 'status' | 'progress' | 'outcome' | 'acknowledged'> & { call: string }) | undefined,
  placedCallId: string | undefined,
): CardCallState {
  if (placedCallId !== undefined && latest?.call !== placedCallId) return 'calling';
  if (!latest) return 'none';
  const fields = callJobFields(latest);
  if (fields.progress === 'waiting') return 'waiting';
  return isCallJobActive(fields) ? 'calling' : 'over';
}

export interface NoticeInput {
  house: Pick<
    HouseRecord,
    | 'pending_call_concerns_ids'
    | 'house_check'
    | 'house_check_start_date'
    | 'house_check_end_date'
    | 'house_check_last_date'
  >;
  phoneCount: number;
  /** Where the home's calls stand (cardCallState). */
  call: CardCallState;
  now: Date;
}

/** Every notice that applies, in the order of docs/product.md#home-cards-and-the-desk-table; empty when the area is hidden. */
export function homeNotices({ house, phoneCount, call, now }: NoticeInput): HomeNotice[] {
  const notices: HomeNotice[] = [];
  if (phoneCount === 0) notices.push('no-phone');
  if (pendingConcernIds(house).length > 0) notices.push('call-pending');
  if (call === 'calling') notices.push('call-in-progress');
  if (call === 'waiting') notices.push('call-waiting');
  if (isHouseCheckDue(house, now)) notices.push('house-check-due');
  return notices;
}
