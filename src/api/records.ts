import type { CallOutcome } from '../domain/callOutcome.ts';
import type { ScanMethod } from '../domain/checkpointCode.ts';
import type { AlertEventKind, AlertKind } from '../domain/safetySchemas.ts';
import type { EverythingOkValue } from '../domain/houseCheckAnswer.ts';
import type { ReportPosition } from '../domain/whereAndWhen.ts';

/**
 * Record shapes as the server stores them (field names keep their original
 * spelling, docs/product.md#decisions). Dates are PocketBase strings: '2026-11-22 06:00:00.000Z'.
 */
export interface BaseRecord {
  id: string;
  created: string;
  updated: string;
}

export type UserType = 'director' | 'manager' | 'regular';

export interface CommunityRecord extends BaseRecord {
  name: string;
  address: string;
}

export interface UserRecord extends BaseRecord {
  email: string;
  emailVisibility: boolean;
  verified: boolean;
  first_name: string;
  last_name: string;
  type: UserType;
  community: string;
  avatar?: string;
  /** Set by the server while the user's password is one a director was shown (new user, reset). */
  must_change_password?: boolean;
  /** When that temporary password stops working (empty once the password is the user's own). */
  temporary_password_expires?: string;
}

export interface HouseRecord extends BaseRecord {
  address: string;
  apt: string;
  city: string;
  state: string;
  zip: string;
  image: string;
  member_number: string;
  security_code: string;
  note: string;
  pending_call_concerns_ids: string;
  house_check: boolean;
  house_check_start_date: string;
  house_check_end_date: string;
  house_check_last_date: string;
  house_check_note: string;
  community: string;
  /**
   * The home's place in the list (src/domain/homeSortKey.ts), kept by the
   * server on every save and by the device on every mirror write
   * (src/data/mirror/db.ts).
   */
  sort_key?: string;
}

export interface ResidentRecord extends BaseRecord {
  first_name: string;
  last_name: string;
  owner: boolean;
  house: string;
}

export type PhoneType = 'cell' | 'home' | 'business';

export interface PhoneRecord extends BaseRecord {
  phone_number: string;
  primary: boolean;
  type: PhoneType | '';
  house: string;
  /** The resident asked not to be called on this number: calls pass over it. */
  do_not_call?: boolean;
}

export interface ConcernRecord extends BaseRecord {
  name: string;
  hint: string;
  say: string;
  added_by: string;
  community: string;
}

export interface ReportRecord extends BaseRecord {
  narative: string;
  ai_generated_narative: string;
  type: string;
  weather: string;
  incident_time: string;
  phone_number: string;
  injury: boolean;
  ems_pbso: boolean;
  photos: string[];
  community: string;
  house: string;
  resident: string;
  created_by: string;
  /** The device's position when the officer allowed it; null (or missing, on older reports) when none. */
  position?: ReportPosition | null;
  /** When the report was made on the device ('' on older reports); `created` is when the server received it. */
  logged_at?: string;
  /** A house check's answer to 'Is everything ok?': 'yes' or 'no'; '' (or missing, in an older mirror) on other reports, or when a check's answer was never recorded. */
  everything_ok?: EverythingOkValue;
}

export type CallStatus =
  'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

export interface CallRecord extends BaseRecord {
  house: string;
  community: string;
  concerns: string[];
  to_number: string;
  script: string;
  status: CallStatus;
  provider_call_id: string;
  error: string;
  created_by: string;
  /** The job. '' for calls placed before attempts existed. */
  progress?: CallProgress | '';
  outcome?: CallOutcome | '';
  acknowledged?: boolean;
  text_sent?: boolean;
  /** Who stopped the retries of the job while it waited for its next try ('' when no one did, or missing in an older mirror). */
  retries_cancelled_by?: string;
  /** When (PocketBase's date text; '' or missing when no one did). */
  retries_cancelled_at?: string;
}

export type CallProgress = 'calling' | 'waiting' | 'done';
export type CallAttemptState = 'scheduled' | 'dialling' | 'placed' | 'ended' | 'skipped';

/** One dial of a call, or one do-not-call phone passed over (written by the server only). */
export interface CallAttemptRecord extends BaseRecord {
  call: string;
  house: string;
  community: string;
  /** 1, 2, ... within the call. */
  sequence: number;
  phone: string;
  to_number: string;
  phone_type: PhoneType | '';
  state: CallAttemptState;
  due_at: string;
  provider_call_id: string;
  provider_status: string;
  answered_by: string;
  started_at: string;
  ended_at: string;
  duration: number;
  outcome: CallOutcome | '';
  acknowledged: boolean;
  reason: string;
}

/** A community's call settings (directors edit them); none saved = the defaults. */
export interface CallSettingsRecord extends BaseRecord {
  community: string;
  retries: number;
  retry_minutes: number;
  text_fallback: boolean;
  quiet_start: string;
  quiet_end: string;
  time_zone: string;
}

/** The collections whose changes the server keeps in `home_changes`. */
export type HomeChangeCollection = 'houses' | 'residents' | 'phones';
export type HomeChangeAction = 'create' | 'update' | 'delete';

/**
 * One change of a home, a resident or a phone, written by the server only
 * (pocketbase/pb_hooks/lib/home_history.js): an update has a row per changed
 * field with the values before and after, as the server stores them (text,
 * a bool, a date or a photo's file name); a create or a delete has `field`
 * '' and the record's main fields in `to_value` or `from_value`.
 */
export interface HomeChangeRecord extends BaseRecord {
  community: string;
  /** The home's id (text, not a link: the history outlives a deleted home). */
  house: string;
  collection_name: HomeChangeCollection;
  record_id: string;
  action: HomeChangeAction;
  field: string;
  from_value: unknown;
  to_value: unknown;
  /** What the record was called then: the address, the resident's name, the phone number. */
  record_label: string;
  /** '' for a change made as a superuser (the server's tooling), or by a user since deleted. */
  changed_by: string;
  changed_by_name: string;
}

/** A place a patrol must pass, with the sticker's codes (the server makes them on create). */
export interface CheckpointRecord extends BaseRecord {
  community: string;
  name: string;
  /** Where the sticker is, taken on a phone at the spot; null until someone did. */
  position: ReportPosition | null;
  /** Metres around the position within which a scan counts as made there. */
  radius: number;
  /** Shown when it is scanned ('Check the pool gate is locked'); '' for none. */
  instructions: string;
  /** A yes/no question asked on the scan; '' for none. */
  question: string;
  /** In the QR code (src/domain/checkpointCode.ts); '' on the device until the server made it. */
  token: string;
  /** Printed under the QR code; '' on the device until the server made it. */
  short_code: string;
  created_by: string;
}

/** Checkpoints in walking order, on a clock schedule in the community's time zone (src/domain/tourRounds.ts). */
export interface TourRecord extends BaseRecord {
  community: string;
  name: string;
  checkpoints: string[];
  start: string;
  end: string;
  every_minutes: number;
  round_minutes: number;
  /** The checkpoints must be scanned in their order. */
  ordered: boolean;
  /** Off: no rounds are due (the tour and its history stay). */
  active: boolean;
  created_by: string;
}

/** An officer's walk of one round of a tour. Device times beside `created`, the server's. */
export interface TourWalkRecord extends BaseRecord {
  community: string;
  tour: string;
  officer: string;
  /** The scheduled start of the round walked: which round it is. */
  round_start: string;
  started_at: string;
  /** '' while the walk is open. */
  ended_at: string;
  /** Why the walk ended with checkpoints left; '' when none were. */
  end_reason: string;
}

/** One scan of a checkpoint on a walk: written once, never changed. */
export interface CheckpointScanRecord extends BaseRecord {
  community: string;
  walk: string;
  checkpoint: string;
  officer: string;
  scanned_at: string;
  method: ScanMethod;
  position: ReportPosition | null;
  /** Worked out by the server from the two positions (src/domain/checkpointCode.ts); '' until it did. */
  place: 'inside' | 'outside' | 'unknown' | '';
  /** Metres from the checkpoint; meaningful only when both positions are known. */
  distance: number;
  answer: 'yes' | 'no' | '';
  note: string;
}

/** An officer on duty: from 'Start shift' to 'End shift' (or the server's end at the community's limit). */
export interface DutyShiftRecord extends BaseRecord {
  community: string;
  officer: string;
  started_at: string;
  /** '' while the officer is on duty. */
  ended_at: string;
  start_position: ReportPosition | null;
  end_position: ReportPosition | null;
  /** Who ended it: its officer, the server at the community's limit, or the officer's next shift; '' while open. */
  ended_by: 'officer' | 'limit' | 'new_shift' | '';
  /** The officer's last answer to the lone-worker check ('I'm OK'); '' for none. */
  checked_at: string;
}

/** An alarm raised for an officer: a panic pressed, or a check-in missed (raised by the server). */
export interface AlertRecord extends BaseRecord {
  community: string;
  officer: string;
  kind: AlertKind;
  /** When it was raised on the phone (device time; `created` is when it reached the server). */
  raised_at: string;
  position: ReportPosition | null;
  /** The shift it was raised in; '' when none was open. */
  shift: string;
  /** '' while the alarm is on. */
  ended_at: string;
  ended_by: string;
  end_kind: 'safe' | 'resolved' | '';
}

/** A step taken on an alert, written once: someone responding, the officer safe, a manager's resolution. */
export interface AlertEventRecord extends BaseRecord {
  community: string;
  alert: string;
  by: string;
  kind: AlertEventKind;
  at: string;
}

/** A community's safety settings (src/domain/safetySchemas.ts); none saved: the defaults there. */
export interface SafetySettingsRecord extends BaseRecord {
  community: string;
  emergency_number: string;
  shift_limit_hours: number;
  check_minutes: number;
  check_grace_minutes: number;
}

export interface RecordsByCollection {
  communities: CommunityRecord;
  users: UserRecord;
  houses: HouseRecord;
  residents: ResidentRecord;
  phones: PhoneRecord;
  concerns: ConcernRecord;
  reports: ReportRecord;
  calls: CallRecord;
  call_attempts: CallAttemptRecord;
  call_settings: CallSettingsRecord;
  home_changes: HomeChangeRecord;
  checkpoints: CheckpointRecord;
  tours: TourRecord;
  tour_walks: TourWalkRecord;
  checkpoint_scans: CheckpointScanRecord;
  safety_settings: SafetySettingsRecord;
  duty_shifts: DutyShiftRecord;
  alerts: AlertRecord;
  alert_events: AlertEventRecord;
}

export type CollectionName = keyof RecordsByCollection;

/**
 * The collections the device mirrors: the one list the pull, realtime and
 * reconciliation follow (src/data/sync). In pull order: parents before
 * children, so that during a first load homes arrive before their residents
 * and phones.
 */
export const MIRRORED_COLLECTIONS: readonly CollectionName[] = [
  'communities',
  'users',
  'concerns',
  'houses',
  'residents',
  'phones',
  'safety_settings',
  'duty_shifts',
  'alerts',
  'alert_events',
  'calls',
  'call_attempts',
  'call_settings',
  'home_changes',
  'checkpoints',
  'tours',
  'tour_walks',
  'checkpoint_scans',
  'reports',
];

/**
 * File fields that hold at most one file (maxSelect 1 in the schema): the
 * server stores one file name string there, not a list, and the mirror must
 * keep that shape while an upload is queued.
 */
export const SINGLE_FILE_FIELDS: { readonly [C in CollectionName]?: readonly string[] } = {
  houses: ['image'],
  users: ['avatar'],
};
