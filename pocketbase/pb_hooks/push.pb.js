/// <reference path="../../.data/pb_data/types.d.ts" />
// Push notifications (lib/push.js; the sender that delivers them is
// server/push/sender.ts): the key browsers subscribe with, the push
// services a subscription may name, and who is told of an alert, a report
// with an injury and an acknowledged call. The notifications are made after
// the record is saved, and a failure there is logged, never the writer's.

// The VAPID public key for a signed-in staff member's browser.
routerAdd('GET', '/api/scms/push/key', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/push.js`).publicKeyRoute);
});

onRecordCreateRequest((e) => {
  require(`${__hooks}/lib/push.js`).checkSubscription(e);
  return e.next();
}, 'push_subscriptions');

onRecordAfterCreateSuccess((e) => {
  require(`${__hooks}/lib/push.js`).alertCreated(e);
  return e.next();
}, 'alerts');

onRecordAfterCreateSuccess((e) => {
  // Checked here first: most reports concern nobody, and the outbox sends them in batches.
  if (e.record.getBool('injury') || e.record.getBool('ems_pbso')) require(`${__hooks}/lib/push.js`).reportCreated(e);
  return e.next();
}, 'reports');

onRecordAfterUpdateSuccess((e) => {
  if (e.record.getBool('acknowledged')) require(`${__hooks}/lib/push.js`).callUpdated(e);
  return e.next();
}, 'calls');

// Every five minutes: the rounds of the shift that were missed, told once (lib/push.js).
cronAdd('scms_missed_rounds', '*/5 * * * *', () => {
  require(`${__hooks}/lib/push.js`).notifyMissedRounds($app, Date.now());
});
