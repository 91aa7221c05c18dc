/**
 * What a home's card and its row of the desk's table share: the actions
 * they offer and what they show of the home's state, decided once here.
 */
import type { HouseWithPeople } from '../../data/queries.ts';
import { homeNotices, type HomeNotice } from './homeNotices.ts';
import { callRunning } from './homeColumns.ts';
import { NO_PHONE_CALL_REASON, OFFLINE_CALL_REASON } from './hooks.ts';

/** 'history': the calls; 'changes': the History of the home's records. */
export type HomeAction = 'update' | 'call' | 'check' | 'history' | 'changes' | 'delete';

export interface HomeItemProps {
  home: HouseWithPeople;
  /** A call was just placed from this device (its record may not be in the mirror yet). */
  callJustPlaced: boolean;
  online: boolean;
  director: boolean;
  now: Date;
  /** Stable for the page's life, so an item redraws only when its own home or state changes. */
  onAction: (action: HomeAction, home: HouseWithPeople) => void;
}

/** The Notice area's notices, and why Call is off (null when it is on). */
export function homeItemState({ home, callJustPlaced, online, now }: HomeItemProps): {
  notices: HomeNotice[];
  callDisabledReason: string | null;
} {
  const callInProgress = callJustPlaced || callRunning(home);
  return {
    notices: homeNotices({ house: home.house, phoneCount: home.phones.length, callInProgress, now }),
    callDisabledReason: !online ? OFFLINE_CALL_REASON : home.phones.length === 0 ? NO_PHONE_CALL_REASON : null,
  };
}
