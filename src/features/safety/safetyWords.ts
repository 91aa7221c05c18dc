/**
 * Officer safety's words in one place (the screens and their tests read
 * them from here).
 */
export const SAFETY_WORDS = {
  title: 'Safety',
  startShift: 'Start shift',
  endShift: 'End shift',
  shiftStarted: 'Shift started',
  shiftEnded: 'Shift ended',
  panic: 'Panic',
  cancel: 'Cancel',
  countdown: (seconds: number) => `Sending your alert in ${seconds}…`,
  countdownHelp: 'Everyone on duty and the managers will be alerted with your name, the time and your position.',
  sending: 'Sending your alert…',
  sent: 'Your alert is sent. Help is being called.',
  queued: 'No connection. Your alert is saved and will be sent the moment there is one.',
  callEmergency: (number: string) => `Call ${number}`,
  responding: "I'm responding",
  youResponding: 'You are responding',
  safe: "I'm safe",
  resolved: 'Resolved',
  noOneYet: 'No one has responded yet.',
  onDuty: 'On duty',
  noOneOnDuty: 'No one is on duty.',
  openAlerts: 'Alerts',
  noAlerts: 'No alerts.',
  settings: 'Safety settings',
  yourShift: 'Your shift',
  offDuty: 'You are off duty.',
  areYouOk: 'Are you OK?',
  imOk: "I'm OK",
  checkInDue: 'Your check-in is due. Tap below to say you are safe.',
  checkInMissed: 'Your check-in is late: the managers and the officers on duty have been alerted.',
} as const;

/** An emergency number when the community set none: the one every phone in the US can call. */
export const FALLBACK_EMERGENCY_NUMBER = '911';

export const SHIFT_END_WORDS = {
  officer: '',
  limit: 'closed by itself at the community’s shift limit',
  new_shift: 'closed when a new shift started',
  '': '',
} as const;
