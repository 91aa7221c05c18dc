/// How the provider's CallStatus values map onto a `calls` record's status,
/// and which changes are allowed. Pure functions.

const FROM_PROVIDER = {
  queued: 'queued',
  initiated: 'queued',
  ringing: 'ringing',
  'in-progress': 'in-progress',
  answered: 'in-progress',
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'failed',
  canceled: 'canceled',
};

const FINAL = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

/** Our status for a provider's CallStatus, or '' when unknown. */
function mapProviderStatus(callStatus) {
  return Object.prototype.hasOwnProperty.call(FROM_PROVIDER, callStatus) ? FROM_PROVIDER[callStatus] : '';
}

function isFinal(status) {
  return FINAL.indexOf(status) !== -1;
}

function rank(status) {
  if (isFinal(status)) return 3;
  return { queued: 0, ringing: 1, 'in-progress': 2 }[status] || 0;
}

/**
 * Whether a call in `current` may move to `next`. Callbacks can arrive out of
 * order (each is its own HTTP request), so a call only moves forward, and an
 * ended call stays as it ended.
 */
function canMove(current, next) {
  if (isFinal(current)) return false;
  return rank(next) > rank(current);
}

module.exports = { mapProviderStatus: mapProviderStatus, isFinal: isFinal, canMove: canMove };
