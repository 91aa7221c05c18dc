/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * A staff password is 8 to 24 characters, on the server too (25 was
 * once accepted). The record hooks refuse a longer one in a record
 * write with the form's message (pb_hooks/validation.pb.js); the field's own
 * limit also covers every other way to set a password (PocketBase's reset
 * e-mail confirmation), so no way in is left. Existing longer passwords
 * still sign in: the limit applies when a password is set.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const users = app.findCollectionByNameOrId('users');
    const password = users.fields.getByName('password');
    password.min = 8;
    password.max = 24;
    app.save(users);
  },
  (app) => {
    const users = app.findCollectionByNameOrId('users');
    const password = users.fields.getByName('password');
    // PocketBase's defaults for an auth collection.
    password.min = 8;
    password.max = 71;
    app.save(users);
  },
);
