/**
 * What a home's card and its row of the desk's table share: the actions
 * they offer and what they show of the home's state, decided once here.
 */
import { useEffect } from 'react';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import type { RetriesControl } from './HomeCard.tsx';
import { cardCallState, homeNotices, type HomeNotice } from './homeNotices.ts';
import { NO_PHONE_CALL_REASON } from './hooks.ts';
import { OFFLINE_CALLS, OFFLINE_CANCELLING_RETRIES } from '../../ui/offlineWords.ts';

/** 'history': the calls; 'changes': the History of the home's records. */
export type HomeAction = 'update' | 'call' | 'check' | 'history' | 'changes' | 'delete' | 'cancel-retries';

export interface HomeItemProps {
  home: HouseWithPeople;
  /** The id of a call just placed from this device (its record may not be in the mirror yet); none, undefined. */
  placedCallId: string | undefined;
  online: boolean;
  director: boolean;
  /** Directors and managers may stop a call's retries. */
  canCancelRetries: boolean;
  /** This home's retries are being cancelled now. */
  cancelling: boolean;
  now: Date;
  /** Stable for the page's life, so an item redraws only when its own home or state changes. */
  onAction: (action: HomeAction, home: HouseWithPeople) => void;
  /** The mirror has the call this device placed (stable, as onAction). */
  onCallSeen: (houseId: string, callId: string) => void;
}

/**
 * The Notice area's notices, why Call is off (null when it is on) and the
 * Cancel retries control. Tells the page once the mirror holds the call this
 * device placed: from then on the call's own state decides (cardCallState).
 */
export function useHomeItem({
  home,
  placedCallId,
  online,
  canCancelRetries,
  cancelling,
  now,
  onAction,
  onCallSeen,
}: HomeItemProps): { notices: HomeNotice[]; callDisabledReason: string | null; retries?: RetriesControl } {
  const seen = placedCallId !== undefined && home.latestCall?.call === placedCallId;
  useEffect(() => {
    if (seen) onCallSeen(home.house.id, placedCallId);
  }, [seen, onCallSeen, home.house.id, placedCallId]);
  const call = cardCallState(home.latestCall, placedCallId);
  return {
    notices: homeNotices({ house: home.house, phoneCount: home.phones.length, call, now }),
    callDisabledReason: !online ? OFFLINE_CALLS : home.phones.length === 0 ? NO_PHONE_CALL_REASON : null,
    retries: canCancelRetries
      ? {
          onCancel: () => onAction('cancel-retries', home),
          disabledReason: online ? null : OFFLINE_CANCELLING_RETRIES,
          busy: cancelling,
        }
      : undefined,
  };
}
