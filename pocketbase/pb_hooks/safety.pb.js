/// <reference path="../../.data/pb_data/types.d.ts" />
// Officer safety (lib/safety.js): one open shift per officer, who ended a
// shift, the shifts the server ends at the community's limit, the
// lone-worker check, the shift an alert belongs to, and an alert ended by
// its first 'safe' or 'resolved' step.

onRecordCreateRequest((e) => {
  e.next();
  require(`${__hooks}/lib/safety.js`).endEarlierShifts(e);
}, 'duty_shifts');

onRecordUpdateRequest((e) => {
  require(`${__hooks}/lib/safety.js`).markOfficerEnd(e);
  return e.next();
}, 'duty_shifts');

onRecordCreateRequest((e) => {
  require(`${__hooks}/lib/safety.js`).fillAlertShift(e);
  return e.next();
}, 'alerts');

onRecordAfterCreateSuccess((e) => {
  require(`${__hooks}/lib/safety.js`).endAlertOnStep(e.app, e.record);
  return e.next();
}, 'alert_events');

// Every minute: shifts left open past their community's limit end at it, and
// the lone-worker checks fall due and are missed (also after a restart).
cronAdd('scms_safety_jobs', '* * * * *', () => {
  const safety = require(`${__hooks}/lib/safety.js`);
  const now = Date.now();
  safety.endOverdueShifts($app, now);
  safety.runLoneWorkerChecks($app, now);
});

// The same, on demand (superusers): what the cron runs, for tests and operators.
routerAdd('POST', '/api/scms/safety-jobs/run', (e) => {
  const { handle, fail } = require(`${__hooks}/lib/respond.js`);
  return handle(e, () => {
    if (!e.hasSuperuserAuth()) throw fail(403, 'Only superusers run the safety jobs.');
    const safety = require(`${__hooks}/lib/safety.js`);
    const now = Date.now();
    const ended = safety.endOverdueShifts(e.app, now);
    const checks = safety.runLoneWorkerChecks(e.app, now);
    const missedRounds = require(`${__hooks}/lib/push.js`).notifyMissedRounds(e.app, now);
    return e.json(200, { ended: ended, asked: checks.asked, raised: checks.raised, missedRounds: missedRounds });
  });
});
