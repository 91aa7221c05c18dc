/// <reference path="../../.data/pb_data/types.d.ts" />
/* global JSONField */
/**
 * Where and when a report was made. `position` is the device's
 * position when the officer allowed it: {latitude, longitude, accuracy}
 * (degrees, metres), or null when there was none, which is not an error.
 * `logged_at` is the device's time when the report was made (the outbox
 * entry's time); `created` stays the server's time of receipt, so a report
 * kept offline shows both. The record rules (pb_hooks/validation.pb.js,
 * from src/domain/recordRules.ts) check the values; this keeps their size
 * small and makes both fields write-once: a report's place and time are
 * evidence, so an update (directors may edit a report) leaves them as
 * they were made.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const reports = app.findCollectionByNameOrId('reports');
    // Three numbers need about 100 bytes; this refuses a padded one outright.
    reports.fields.add(new JSONField({ name: 'position', maxSize: 512 }));
    reports.fields.add(new DateField({ name: 'logged_at' }));
    reports.updateRule = `(${reports.updateRule}) && @request.body.position:isset = false && @request.body.logged_at:isset = false`;
    app.save(reports);
  },
  (app) => {
    const reports = app.findCollectionByNameOrId('reports');
    reports.fields.removeByName('position');
    reports.fields.removeByName('logged_at');
    const locked = /^\((.*)\) && @request\.body\.position:isset = false && @request\.body\.logged_at:isset = false$/;
    reports.updateRule = String(reports.updateRule).replace(locked, '$1');
    app.save(reports);
  },
);
