/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Temporary passwords expire. A password a director was shown (a new user's,
 * or a reset's) is one more person knows; left unused it would sign in for
 * ever. `temporary_password_expires` is when it stops working: set by the
 * server with `must_change_password` (pb_hooks/lib/passwords.js), cleared
 * when the user chooses their own. Directors read it on the Users screen;
 * nobody but the server writes it.
 *
 * Users already waiting with a temporary password get the default period
 * (72 hours) from this migration, not an expiry in the past.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId('users');
    users.fields.add(new DateField({ name: 'temporary_password_expires' }));
    app.save(users);
    const expires = new Date(Date.now() + 72 * 3600 * 1000).toISOString().replace('T', ' ');
    app
      .db()
      .newQuery('UPDATE users SET temporary_password_expires = {:expires} WHERE must_change_password = TRUE')
      .bind({ expires: expires })
      .execute();
  },
  (app) => {
    const users = app.findCollectionByNameOrId('users');
    users.fields.removeByName('temporary_password_expires');
    app.save(users);
  },
);
