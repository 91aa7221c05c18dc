/**
 * What a screen says when it is offline, in one place (the words for work
 * saved on the device are in `savedWords.ts`). An action that needs the
 * server says what needs the connection; a list that reads further than the
 * device holds says what it shows instead.
 */

// Actions that need a connection.
export const OFFLINE_CALLS = 'You are offline — calls need a connection.';
export const OFFLINE_CANCELLING_RETRIES = 'You are offline — cancelling retries needs a connection.';
export const OFFLINE_AI_ASSIST = 'You are offline — Ai Assist needs a connection.';
export const OFFLINE_MANAGING_USERS = 'You are offline — managing users needs a connection.';
export const OFFLINE_MANAGING_CONCERNS = 'You are offline — managing concerns needs a connection.';
export const OFFLINE_SAVING_CALL_SETTINGS = 'You are offline — saving call settings needs a connection.';
export const OFFLINE_SETTING_PASSWORD = 'You are offline — setting a new password needs a connection.';
export const OFFLINE_RESETTING_PASSWORD = 'You are offline — resetting a password needs a connection.';

// Lists and figures reading further than the device holds.
export const OFFLINE_OLDER_REPORTS =
  'You are offline — older reports need a connection. Showing the reports on this device.';
export const OFFLINE_DAY_NOT_ON_DEVICE =
  'You are offline — this day is not on this device yet. Showing what the device holds.';
export const OFFLINE_PERIOD_NOT_ON_DEVICE =
  'You are offline — part of this period is not on this device. The figures count what the device holds.';

// Work that waits on the device.
export const OFFLINE_HOUSE_CHECKS_NOTE =
  'You are offline: checks are saved on this device and sent when you are back online.';
export const OFFLINE_SYNC_NOW =
  'You are offline: nothing can be sent now. Your changes are kept and sent once you are back online.';
