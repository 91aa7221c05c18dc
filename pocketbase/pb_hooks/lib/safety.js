/// Officer safety's rules that API rules cannot say (hooks in
/// safety.pb.js; the collections in pb_migrations/1765700000_duty_and_alerts.js):
/// one open shift per officer, who ended a shift, the server's end of a shift
/// left open past the community's limit, the lone-worker check, the shift an
/// alert was raised in, and an alert ended by its first 'safe' or 'resolved'
/// step.

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DEFAULT_GRACE_MINUTES = 5;
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

const time = (stored) => (stored ? new Date(stored.replace(' ', 'T')).getTime() : 0);

/** The id of one check of a shift (the shift and when it fell due): the same on every run, so nothing is asked or raised twice. */
const checkId = (shiftId, dueMs) => $security.md5(`${shiftId}:${dueMs}`).slice(0, 15);

/**
 * The lone-worker check of every open shift in a community that has one:
 * a check falls due every `check_minutes` after the shift's start or its
 * last answer (`checked_at`); when it is due the officer is asked ('Are you
 * OK?', a notification; the app asks too), and once the grace has passed
 * with no answer the server raises a missed check-in alert, as a Panic is
 * raised, to the managers and the officers on duty. Run every minute by the
 * cron: a phone that died still raises it. Each check has one id
 * (checkId), so a restart or a second run asks and raises nothing twice.
 */
function runLoneWorkerChecks(app, now) {
  const push = require(`${__hooks}/lib/push.js`);
  let asked = 0;
  let raised = 0;
  for (const settings of app.findRecordsByFilter('safety_settings', 'check_minutes > 0', '', 0, 0)) {
    const community = settings.getString('community');
    const every = settings.getInt('check_minutes') * MINUTE_MS;
    const grace = (settings.getInt('check_grace_minutes') || DEFAULT_GRACE_MINUTES) * MINUTE_MS;
    const open = app.findRecordsByFilter('duty_shifts', 'community = {:c} && ended_at = ""', '', 0, 0, {
      c: community,
    });
    for (const shift of open) {
      const due = Math.max(time(shift.getString('started_at')), time(shift.getString('checked_at'))) + every;
      if (now < due) continue;
      const id = checkId(shift.id, due);
      const officer = shift.getString('officer');
      try {
        push.notify(app, [officer], {
          community: community,
          kind: 'check_in_due',
          title: 'Are you OK?',
          body: "Your check-in is due: open SCMS and tap I'm OK.",
          url: '/safety',
          source: id,
        });
        asked++;
      } catch (err) {
        app.logger().error('scms safety: check-in not asked', 'shift', shift.id, 'error', String(err));
      }
      if (now < due + grace) continue;
      try {
        app.findRecordById('alerts', id);
        continue; // raised by an earlier run
      } catch {
        // not yet: raise it
      }
      const alert = new Record(app.findCachedCollectionByNameOrId('alerts'));
      alert.set('id', id);
      alert.set('community', community);
      alert.set('officer', officer);
      alert.set('kind', 'missed_check_in');
      alert.set('raised_at', pbDate(due + grace));
      alert.set('position', shift.get('start_position'));
      alert.set('shift', shift.id);
      app.save(alert);
      raised++;
    }
  }
  return { asked: asked, raised: raised };
}

module.exports = {
  endEarlierShifts,
  markOfficerEnd,
  fillAlertShift,
  endAlertOnStep,
  endOverdueShifts,
  runLoneWorkerChecks,
};
