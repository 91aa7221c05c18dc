/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Who stopped a call's retries, and when. A call waiting for its next try
 * (a retry held until quiet hours end can wait all night) can be stopped by
 * a director or a manager (POST /api/scms/call-retries/cancel,
 * pb_hooks/lib/calls.js); the call keeps who did it and when, for
 * 'Call history'. Empty on every other call. Written only by that route:
 * the calls' API rules let no one write them.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const calls = app.findCollectionByNameOrId('calls');
    const users = app.findCollectionByNameOrId('users');
    // Not required and no cascade: a user deleted later leaves the call, which then says 'a former user'.
    calls.fields.add(
      new RelationField({ name: 'retries_cancelled_by', maxSelect: 1, collectionId: users.id, cascadeDelete: false }),
    );
    calls.fields.add(new DateField({ name: 'retries_cancelled_at' }));
    app.save(calls);
  },
  (app) => {
    const calls = app.findCollectionByNameOrId('calls');
    calls.fields.removeByName('retries_cancelled_by');
    calls.fields.removeByName('retries_cancelled_at');
    app.save(calls);
  },
);
