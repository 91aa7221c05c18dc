/// Officer safety's rules that API rules cannot say (hooks in
/// safety.pb.js; the collections in pb_migrations/1765700000_duty_and_alerts.js):
/// one open shift per officer, who ended a shift, the server's end of a shift
/// left open past the community's limit, the shift an alert was raised in,
/// and an alert ended by its first 'safe' or 'resolved' step.

const HOUR_MS = 60 * 60 * 1000;
const DEFAULT_SHIFT_LIMIT_HOURS = 14;

const pbDate = (ms) => new Date(ms).toISOString().replace('T', ' ');

/** The officer's shifts still open (normally none or one). */
function openShifts(app, officer) {
  return app.findRecordsByFilter('duty_shifts', 'officer = {:o} && ended_at = ""', '-started_at', 0, 0, {
    o: officer,
  });
}

/**
 * A new shift ends any the officer left open (on another phone, or a phone
 * that went flat), at the new one's start: an officer is on duty once, and
 * a queued start is never refused (nothing an officer wrote is dropped).
 */
function endEarlierShifts(e) {
  const record = e.record;
  const startedAt = record.getString('started_at');
  for (const shift of openShifts(e.app, record.getString('officer'))) {
    if (shift.id === record.id) continue;
    const earlier = shift.getString('started_at') <= startedAt;
    shift.set('ended_at', earlier ? startedAt : shift.getString('started_at'));
    shift.set('ended_by', 'new_shift');
    e.app.save(shift);
  }
}

/** The officer's own end of a shift is said to be theirs (the API rule lets only them, and only `ended_at`). */
function markOfficerEnd(e) {
  if (e.hasSuperuserAuth()) return;
  e.record.set('ended_by', 'officer');
}

/** An alert names the shift it was raised in: the officer's open one. */
function fillAlertShift(e) {
  const record = e.record;
  if (record.getString('shift')) return;
  const open = openShifts(e.app, record.getString('officer'));
  if (open.length > 0) record.set('shift', open[0].id);
}

/** A 'safe' or 'resolved' step ends the alert once; later steps are kept in its history only. */
function endAlertOnStep(app, event) {
  const kind = event.getString('kind');
  if (kind !== 'safe' && kind !== 'resolved') return;
  const alert = app.findRecordById('alerts', event.getString('alert'));
  if (alert.getString('ended_at')) return;
  alert.set('ended_at', event.getString('at'));
  alert.set('ended_by', event.getString('by'));
  alert.set('end_kind', kind);
  app.save(alert);
}

/** Each community's shift limit in hours (its safety settings, or the default). */
function shiftLimits(app) {
  const limits = {};
  for (const settings of app.findAllRecords('safety_settings')) {
    limits[settings.getString('community')] = settings.getInt('shift_limit_hours') || DEFAULT_SHIFT_LIMIT_HOURS;
  }
  return limits;
}

/**
 * Ends the shifts left open past their community's limit, at the limit
 * (`ended_by` = "limit": the app says the shift closed itself). Run every
 * minute by the cron; ending is idempotent, so a restart repeats nothing.
 */
function endOverdueShifts(app, now) {
  const limits = shiftLimits(app);
  // The shortest limit (an hour) bounds the search: a younger shift is never overdue.
  const oldest = now - 1 * HOUR_MS;
  const open = app.findRecordsByFilter('duty_shifts', 'ended_at = "" && started_at <= {:t}', 'started_at', 0, 0, {
    t: pbDate(oldest),
  });
  let ended = 0;
  for (const shift of open) {
    const limit = (limits[shift.getString('community')] || DEFAULT_SHIFT_LIMIT_HOURS) * HOUR_MS;
    const started = new Date(shift.getString('started_at').replace(' ', 'T')).getTime();
    if (!(started + limit <= now)) continue;
    shift.set('ended_at', pbDate(started + limit));
    shift.set('ended_by', 'limit');
    app.save(shift);
    ended++;
  }
  return ended;
}

module.exports = { endEarlierShifts, markOfficerEnd, fillAlertShift, endAlertOnStep, endOverdueShifts };
