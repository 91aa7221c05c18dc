/**
 * The words of the Notifications section of the Safety screen
 * (NotificationSettings.tsx), in one place: the screen and its tests read
 * them from here. The offline sentences follow src/ui/offlineWords.ts.
 */
import type { NotificationKind, PushProblem, PushSupport } from '../../data/resources/push.ts';

export const NOTIFICATION_WORDS = {
  title: 'Notifications',
  turnOn: 'Turn on notifications',
  turnOff: 'Turn off',
  turningOn: 'Turning on',
  turningOff: 'Turning off',
  checking: 'Checking this phone…',
  on: 'On for this phone: alerts reach it even when the app is closed.',
  off: 'Off for this phone.',
  blocked:
    "Blocked in this browser's settings. Allow notifications for this site in the browser's settings, then come back here.",
  unsupported: 'This browser cannot receive notifications.',
  needsInstall: 'On iPhone, add the app to the Home Screen first:',
  installSteps: [
    'In Safari, tap Share, then Add to Home Screen.',
    'Open SCMS from the Home Screen and turn them on there.',
  ],
  notAllowed: 'Notifications were not allowed, so they stay off.',
  inApp: 'Without notifications, every alert still shows and sounds in the app while it is open.',
  offlineTurningOn: 'You are offline — turning notifications on needs a connection.',
  offlineChoices: 'You are offline — choosing what you are sent needs a connection.',
  choices: 'What you are sent',
  choicesNote: 'On every phone where you turned notifications on.',
  recommended: 'Recommended',
  saving: 'Saving…',
  saved: 'Saved.',
} as const;

/** The state in words, for each PushSupport once it is known whether this phone is subscribed. */
export function pushStateWords(support: PushSupport, on: boolean): string {
  switch (support) {
    case 'unsupported':
      return NOTIFICATION_WORDS.unsupported;
    case 'needs-install':
      return NOTIFICATION_WORDS.needsInstall;
    case 'denied':
      return NOTIFICATION_WORDS.blocked;
    default:
      return on ? NOTIFICATION_WORDS.on : NOTIFICATION_WORDS.off;
  }
}

/** Why turning on or off failed (PushProblem's reasons, src/data/resources/push.ts). */
export const PUSH_PROBLEM_WORDS: Record<PushProblem['reason'], string> = {
  'no-worker': 'The app is still getting ready on this phone. Reload the page, then try again.',
  'push-service': "This browser's notification service did not answer. Try again in a moment.",
  'no-keys': 'This browser did not give what notifications need. Try again, or use another browser.',
};

/** The choices shown, in this order; check-in reminders are the officer's own and are not offered for muting. */
export const KIND_CHOICES: ReadonlyArray<{
  kind: NotificationKind;
  label: string;
  recommended?: boolean;
  /** Only directors and managers are sent it (pocketbase/pb_hooks/lib/push.js). */
  managersOnly?: boolean;
}> = [
  { kind: 'panic', label: 'Panic alerts', recommended: true },
  { kind: 'missed_check_in', label: 'Missed check-ins', recommended: true },
  { kind: 'injury_report', label: 'Reports with an injury or EMS', managersOnly: true },
  { kind: 'call_acknowledged', label: 'A resident acknowledged my call' },
  { kind: 'missed_round', label: 'Missed tour rounds' },
];
