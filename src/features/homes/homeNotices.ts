/**
 * The Notice area of a home card (spec §2): what it says, decided from the
 * home, its phones and the calls in the mirror. Pure, so the rules are
 * tested without a screen.
 */
import type { CallRecord, CallStatus, HouseRecord } from '../../api/records.ts';
import type { CallJobFields } from '../../domain/callOutcome.ts';
import { isHouseCheckDue } from '../../domain/houseCheck.ts';

export type HomeNotice = 'no-phone' | 'call-pending' | 'call-in-progress' | 'house-check-due';

/** What the Notice area says for each notice (spec §2); 'House check' is its button. */
export const NOTICE_WORDS: Record<HomeNotice, string> = {
  'no-phone': 'Primary phone number missing',
  'call-pending': 'Call pending',
  'call-in-progress': 'Call in progress...',
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
  /** A call is ringing now (from the mirror, or placed from this device moments ago). */
  callInProgress: boolean;
  now: Date;
}

/** Every notice that applies, in the spec's order; empty when the area is hidden. */
export function homeNotices({ house, phoneCount, callInProgress, now }: NoticeInput): HomeNotice[] {
  const notices: HomeNotice[] = [];
  if (phoneCount === 0) notices.push('no-phone');
  if (pendingConcernIds(house).length > 0) notices.push('call-pending');
  if (callInProgress) notices.push('call-in-progress');
  if (isHouseCheckDue(house, now)) notices.push('house-check-due');
  return notices;
}
