/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * The lone-worker check (docs/product.md#on-duty-and-alerts): an officer on
 * duty answers 'Are you OK?' every N minutes of the community's safety
 * settings; the answer is the shift's `checked_at` (device time), which its
 * officer alone sets while the shift is open, alone or with the end of the
 * shift, never with anything else. The server asks and, past the grace
 * period, raises a missed check-in (pb_hooks/lib/safety.js).
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const shifts = app.findCollectionByNameOrId('duty_shifts');
    shifts.fields.add(new DateField({ name: 'checked_at' }));
    const unset = (...fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(' && ');
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const ends = '(@request.body.ended_at:isset = true && @request.body.ended_at != "")';
    const checksIn = `(@request.body.checked_at:isset = true && @request.body.checked_at != "" && ${unset('ended_at', 'end_position')})`;
    shifts.updateRule = [
      `${signedIn} && community = @request.auth.community && officer = @request.auth.id && ended_at = ""`,
      `(${ends} || ${checksIn})`,
      unset('community', 'officer', 'started_at', 'start_position', 'ended_by'),
    ].join(' && ');
    app.save(shifts);
  },
  (app) => {
    const shifts = app.findCollectionByNameOrId('duty_shifts');
    shifts.fields.removeByName('checked_at');
    app.save(shifts);
  },
);
